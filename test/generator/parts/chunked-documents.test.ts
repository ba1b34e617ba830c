/**
 * A document assembled from per-product fragments is held as its chunks, and a large one is
 * cut into parts straight from them: its bytes are never joined into one buffer on the way
 * (at 100,000 products that was a copy of every large document, 1.25 GB, per build).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { emitCatalog } from '../../../generator/emit/catalog.js';
import { storeDocument } from '../../../generator/emit/document-storage.js';
import { emitFeed } from '../../../generator/emit/feed.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import { makeFeedReadyProducts, makeSampleConfig, makeSamplePlan } from '../../helpers/sample-plan.js';

const config = makeSampleConfig();
const plan = {
  ...makeSamplePlan({ config, products: makeFeedReadyProducts(config) }),
  partSizes: partSizesAround(256),
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a large document of fragments stored in parts', () => {
  for (const [name, emit] of [
    ['the catalog', emitCatalog],
    ['the feed', emitFeed],
  ] as const) {
    it(`when ${name} is stored in parts then its chunks are never joined and the parts hold its bytes`, () => {
      const [document] = emit(plan);
      if (document === undefined) throw new Error(`${name} was not emitted`);
      const whole = Buffer.from(artifactBytes(document));
      expect(whole.length).toBeGreaterThan(512);
      // Emitted again, so the whole bytes read above are not already joined and kept.
      const [fresh] = emit(plan);
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
      const entries = (JSON.parse(manifest?.body ?? '{}') as { parts: { path: string }[] }).parts;
      const byPath = new Map(parts.map((part) => [part.path, artifactBytes(part)]));
      expect(Buffer.concat(entries.map((entry) => byPath.get(entry.path) ?? Buffer.alloc(0)))).toEqual(whole);
    });
  }
});
