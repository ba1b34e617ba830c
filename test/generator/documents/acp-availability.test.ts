/**
 * The ACP feed states availability in values ACP knows (issue 31, item 12): a coming-soon
 * product is `out_of_stock` and not available (ACP's `preorder` would promise a release
 * date the record does not have), and the gate refuses a status outside ACP's list and a
 * sold-out variant marked available.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { ACP_PRODUCTS_FILE, ACP_STATUSES } from '../../../generator/emit/agent-feeds/acp-feed.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';

const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, agent_feeds: { acp: { enabled: true } } });
const products = makeFeedReadyProducts(config);
const artifacts = emitBundle(makeSamplePlan({ config, products }));

interface AcpVariant {
  id: string;
  availability: { available: boolean; status: string };
}
const lines = (artifacts.find((artifact) => artifact.path === ACP_PRODUCTS_FILE)?.body ?? '')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; variants: AcpVariant[] });

function feedProblems(files: Artifact[]): string[] {
  return validateArtifacts(files)
    .filter((problem) => problem.rule === 'agent-feed')
    .map((problem) => problem.message);
}

/** The bundle with every variant of the ACP feed changed by `change`. */
function withVariants(change: (variant: AcpVariant) => AcpVariant): Artifact[] {
  const body = lines
    .map((line) => `${JSON.stringify({ ...line, variants: line.variants.map(change) })}\n`)
    .join('');
  return artifacts.map((artifact) =>
    artifact.path === ACP_PRODUCTS_FILE ? { ...artifact, body } : artifact,
  );
}

describe('ACP availability', () => {
  const comingSoon = products.find((product) => product.record.availability === 'coming_soon');

  it('when a product is coming soon then its variants are out_of_stock and not available', () => {
    expect(comingSoon).toBeDefined();
    const line = lines.find((entry) => entry.id === comingSoon?.record.id);
    expect(line?.variants.map((variant) => variant.availability)).toEqual(
      comingSoon?.record.variants.map(() => ({ available: false, status: 'out_of_stock' })),
    );
  });

  it('when the feed is read then every status is one ACP knows, and the gate accepts it', () => {
    const statuses = lines.flatMap((line) => line.variants.map((variant) => variant.availability.status));
    for (const status of statuses) expect(ACP_STATUSES as readonly string[]).toContain(status);
    expect(feedProblems(artifacts)).toEqual([]);
  });

  it('when a variant says coming_soon, or sold out but available, then the gate refuses it', () => {
    const unknown = withVariants((variant) =>
      variant.availability.available
        ? variant
        : { ...variant, availability: { available: false, status: 'coming_soon' } },
    );
    expect(
      feedProblems(unknown).some((message) => message.includes('"coming_soon" is not one ACP knows')),
    ).toBe(true);
    const contradictory = withVariants((variant) =>
      variant.availability.available
        ? variant
        : { ...variant, availability: { available: true, status: 'out_of_stock' } },
    );
    expect(
      feedProblems(contradictory).some((message) => message.includes('out_of_stock but available')),
    ).toBe(true);
  });
});
