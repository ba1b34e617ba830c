/**
 * The variant shards' entries kept in a file (generator/product-store/variant-pairs-file.ts):
 * each shard gives back its entries in the order they were added, across the blocks it
 * wrote and the ones still gathered, whatever characters the ids hold; closing deletes the file.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVariantPairsFile } from '../../../generator/product-store/variant-pairs-file.js';

let parent = '';
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-pairs-test-'));
});
afterEach(() => rm(parent, { recursive: true, force: true }));

describe('the variant pairs file', () => {
  it('when many entries go to a few shards then each shard gives back its own, in order', () => {
    const pairs = createVariantPairsFile(parent);
    try {
      const expected = new Map<number, [string, string][]>();
      // Enough for each shard to write several blocks and keep a part gathered.
      for (let index = 0; index < 3_000; index += 1) {
        const shard = (index * 7) % 5;
        const entry: [string, string] = [`gid://shopify/ProductVariant/${index}`, `product-${index % 97}`];
        pairs.add(shard, ...entry);
        expected.set(shard, [...(expected.get(shard) ?? []), entry]);
      }
      const awkward: [string, string] = ['tab\there\nnewline "quoted" 果汁 🍊', '\\back\\slash'];
      pairs.add(2, ...awkward);
      expected.get(2)?.push(awkward);
      for (const shard of [0, 1, 2, 3, 4]) expect([...pairs.of(shard)]).toEqual(expected.get(shard));
      // Read twice, the same; a shard with no entry gives none.
      expect([...pairs.of(3)]).toEqual(expected.get(3));
      expect([...pairs.of(9)]).toEqual([]);
    } finally {
      pairs.close();
    }
  });

  it('when closed then its file is gone and reading it is refused', async () => {
    const pairs = createVariantPairsFile(parent);
    pairs.add(0, 'v', 'p');
    expect(await readdir(parent)).toHaveLength(1);
    pairs.close();
    pairs.close();
    expect(await readdir(parent)).toEqual([]);
    expect(() => [...pairs.of(0)]).toThrow(TypeError);
    expect(() => pairs.add(0, 'v', 'p')).toThrow(TypeError);
  });
});
