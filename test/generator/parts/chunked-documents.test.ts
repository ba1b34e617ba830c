/**
 * A document assembled from per-product fragments is held as its chunks, and a large one is
 * cut into parts straight from them: its bytes are never joined into one buffer on the way
 * (at 100,000 products that was a copy of every large document, 1.25 GB, per build).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { emitAcpFeed } from '../../../generator/emit/agent-feeds/acp-feed.js';
import { emitCatalog } from '../../../generator/emit/catalog.js';
import { storeDocument } from '../../../generator/emit/document-storage.js';
import { emitFeed } from '../../../generator/emit/feed.js';
import { emitKnowledgeBase } from '../../../generator/emit/kb.js';
import { forgetKnowledgeBaseSections } from '../../../generator/emit/kb-markdown.js';
import { emitLlms } from '../../../generator/emit/llms.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import type { BuildPlan } from '../../../generator/plan.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';

const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, agent_feeds: { acp: { enabled: true } } });
const plan = {
  ...makeSamplePlan({ config, products: makeFeedReadyProducts(config) }),
  partSizes: partSizesAround(256),
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a large document of fragments stored in parts', () => {
  const first = (artifacts: Artifact[]) => artifacts[0];
  const last = (artifacts: Artifact[]) => artifacts.at(-1);
  for (const [name, emit] of [
    ['the catalog', (p: BuildPlan) => first(emitCatalog(p))],
    ['the feed', (p: BuildPlan) => first(emitFeed(p))],
    ['kb/products.json', (p: BuildPlan) => first(emitKnowledgeBase(p))],
    ['the knowledge base', (p: BuildPlan) => last(emitKnowledgeBase(p))],
    ['llms-full.txt', (p: BuildPlan) => last(emitLlms(p))],
    ['the ACP feed', (p: BuildPlan) => last(emitAcpFeed(p))],
  ] as const) {
    it(`when ${name} is stored in parts then its chunks are never joined and the parts hold its bytes`, () => {
      const document = emit(plan);
      if (document === undefined) throw new Error(`${name} was not emitted`);
      const whole = Buffer.from(artifactBytes(document));
      expect(whole.length).toBeGreaterThan(512);
      // Emitted again (the knowledge base's sections afresh), so no joined bytes are kept from above.
      forgetKnowledgeBaseSections(plan);
      const fresh = emit(plan);
      if (fresh === undefined) throw new Error(`${name} was not emitted`);
      const joins: number[] = [];
      const concat = Buffer.concat.bind(Buffer);
      vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
        const joined = concat(list, length);
        joins.push(joined.length);
        return joined;
      });
      const stored = storeDocument(plan, fresh, (file) => file);
      expect(stored.parted).toBeDefined();
      expect(joins.filter((length) => length >= whole.length)).toEqual([]);
      vi.restoreAllMocks();
      const parts = stored.files.filter((file) => file.path.endsWith('.part'));
      expect(parts.length).toBeGreaterThan(1);
      const manifest = stored.files.find((file) => !file.path.endsWith('.part'));
      const entries = (JSON.parse(manifest?.body ?? '{}') as { parts: { path?: string; text?: string }[] })
        .parts;
      const byPath = new Map(parts.map((part) => [part.path, artifactBytes(part)]));
      // A head or tail written in the manifest is its text; every other part is a file.
      const bytesOf = (entry: (typeof entries)[number]) =>
        entry.path === undefined
          ? Buffer.from(entry.text ?? '', 'utf8')
          : (byPath.get(entry.path) ?? Buffer.alloc(0));
      expect(Buffer.concat(entries.map(bytesOf))).toEqual(whole);
    });
  }
});

describe('a document of fragments that fits one file', () => {
  it('when it is stored whole then it is written from the bytes the cut read: each fragment is read once', () => {
    const { plan: counting, reads } = countingReads({ ...plan, partSizes: partSizesAround(1 << 20) });
    const expected = Buffer.from(artifactBytes(first(emitCatalog(plan))));
    const stored = storeDocument(counting, first(emitCatalog(counting)), (file) => file);
    expect(stored.parted).toBeUndefined();
    expect(stored.files).toHaveLength(1);
    expect(artifactBytes(stored.files[0] as Artifact).equals(expected)).toBe(true);
    expect(reads.size).toBe(plan.products.length);
    expect([...reads.values()].every((count) => count === 1)).toBe(true);
  });
});

function first(artifacts: Artifact[]): Artifact {
  const [artifact] = artifacts;
  if (artifact === undefined) throw new Error('nothing was emitted');
  return artifact;
}

/** The plan with each product fragment's reads counted, by slug. */
function countingReads(base: BuildPlan): { plan: BuildPlan; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const fragments: BuildPlan['fragments'] = {
    ...base.fragments,
    elements(kind, products, render) {
      const elements = base.fragments.elements(kind, products, render);
      return {
        ...elements,
        read: (index) => {
          const slug = elements.slug(index);
          reads.set(slug, (reads.get(slug) ?? 0) + 1);
          return elements.read(index);
        },
      };
    },
  };
  return { plan: { ...base, fragments }, reads };
}
