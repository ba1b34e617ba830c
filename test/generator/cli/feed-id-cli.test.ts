/**
 * A product whose feed id (its variant's id) Google would refuse (g:id "Max 50 characters") is left out of
 * feed.xml only, like a product with no image or a zero price: through the compiled CLI on
 * a copy of the embedded sample, the build publishes, warns FEED_ITEM_EXCLUDED naming the
 * product and the rule, and keeps the product in the catalog.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../generator/model.js';
import type { BuildReport } from '../../../generator/summary/report.js';
import { ensureCompiled, runCli } from './run-cli.js';
import { makeSampleWorkspace } from './sample-workspace.js';

const LONG = 'green-glow';
const LONG_ID = `gid-${'x'.repeat(60)}`;

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(() => ensureCompiled());
beforeEach(async () => {
  ({ dir, cleanup } = await makeSampleWorkspace());
  const file = join(dir, 'sample/upstream/products.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as {
    products: { handle: string; id: unknown; variants: { id: unknown }[] }[];
  };
  // The feed's g:id is the variant's id (the product's own when it has no store variants).
  for (const product of data.products) {
    if (product.handle !== LONG) continue;
    product.variants.forEach((variant, index) => {
      variant.id = `${LONG_ID}-${index}`;
    });
  }
  await writeFile(file, JSON.stringify(data));
});
afterEach(() => cleanup());

describe('a product whose feed id is over 50 characters', () => {
  it('when built then the product is left out of feed.xml only, with the id rule, and the build publishes', async () => {
    const run = await runCli(['build', '--json'], { cwd: dir, limitMs: 30_000 });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout.trim()) as BuildReport;
    expect(report.published).toBe(true);
    expect(report.feedExcluded).toEqual([{ product: LONG, rule: 'id' }]);
    expect(report.warnings.some((warning) => warning.includes(LONG) && warning.includes('id'))).toBe(true);
    const catalog = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as Catalog;
    expect(catalog.products.map((product) => product.slug)).toContain(LONG);
    const feed = await readFile(join(dir, 'dist/feed.xml'), 'utf8');
    expect(feed).not.toContain(LONG_ID);
    expect(feed).not.toContain(`/${LONG}`);
    const check = await runCli(['check', 'dist'], { cwd: dir, limitMs: 30_000 });
    expect(check.code).toBe(0);
  });
});
