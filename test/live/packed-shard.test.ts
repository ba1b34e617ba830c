/**
 * The packed shard format and the shard sizing, as pure functions: every entry comes back
 * exactly as written (keys with quotes, tabs and non-Latin text; bodies with newlines,
 * tabs and emoji), a missing key is undefined and a damaged file is refused; the shard
 * count is a power of two sized from the catalog, kept from the last bundle while it fits.
 */
import { describe, expect, it } from 'vitest';
import {
  chooseShardCount,
  countShards,
  pageShardPath,
  productShardPath,
  shardOf,
  variantShardPath,
} from '../../live/live-layout.js';
import { packEntries, readPackedEntries, readPackedEntry } from '../../live/packed-shard.js';

const ENTRIES = [
  { key: 'green-glow', body: '---\nid: "1"\n---\n# Green\tGlow\n', meta: '"abc"' },
  { key: 'say "hi"\tnow', body: '{"a":"\\u0000"}', meta: '' },
  { key: '果汁-🍊', body: 'Piña 🍍 — 抹茶\n\n', meta: '"x-y_z"' },
  { key: 'empty', body: '' },
  { key: 'green', body: 'a key that is the start of another' },
];

describe('packed shards', () => {
  const text = packEntries(ENTRIES);

  it('gives back every entry exactly, by its key', () => {
    for (const entry of ENTRIES) {
      expect(readPackedEntry(text, entry.key), entry.key).toEqual({
        body: entry.body,
        meta: entry.meta ?? '',
      });
    }
    expect(
      readPackedEntries(text)
        .map((entry) => entry.key)
        .sort(),
    ).toEqual(ENTRIES.map((e) => e.key).sort());
  });

  it('answers undefined for a key it does not hold, even one found inside a body or another key', () => {
    for (const key of ['green-', 'Glow', 'hi', 'no-such-key', ''])
      expect(readPackedEntry(text, key), key).toBeUndefined();
  });

  it('writes the same text whatever order the entries come in', () => {
    expect(packEntries([...ENTRIES].reverse())).toBe(text);
  });

  it('refuses a file that is not a packed shard, or one cut short', () => {
    expect(() => readPackedEntry('{"green-glow": {}}', 'green-glow')).toThrow(TypeError);
    expect(() => readPackedEntry(text.slice(0, text.length - 12), '果汁-🍊')).toThrow(TypeError);
    expect(() => packEntries([{ key: 'a', body: '', meta: 'a\tb' }])).toThrow(TypeError);
  });
});

describe('shard sizing', () => {
  it('is a power of two that gives each shard between half and all of the products it is sized for', () => {
    for (const products of [0, 1, 127, 128, 129, 5_000, 100_000, 1_000_000]) {
      const count = chooseShardCount(products, 128);
      expect(Number.isInteger(Math.log2(count)), String(products)).toBe(true);
      expect(Math.max(products, 1) / count).toBeLessThanOrEqual(128);
      if (count > 1) expect(products / count).toBeGreaterThan(64);
    }
  });

  it("keeps the last bundle's count while each shard holds between half and twice its size, and only then reshards", () => {
    // Sized for 1,500 products at 128 a shard: 16 shards.
    expect(chooseShardCount(1_500, 128)).toBe(16);
    // Grown past where a fresh build would choose 32, still within twice the size: kept.
    expect(chooseShardCount(2_100, 128)).toBe(32);
    expect(chooseShardCount(2_100, 128, 16)).toBe(16);
    expect(chooseShardCount(4_096, 128, 16)).toBe(16);
    // Past twice the size: resharded to what a fresh build chooses.
    expect(chooseShardCount(4_097, 128, 16)).toBe(chooseShardCount(4_097, 128));
    // Shrunk to half the size: resharded.
    expect(chooseShardCount(1_025, 128, 16)).toBe(16);
    expect(chooseShardCount(1_024, 128, 16)).toBe(8);
    // A count that is no power of two (a bundle of another sizing) is not kept.
    expect(chooseShardCount(1_500, 128, 12)).toBe(16);
  });

  it('reshards at most a few times while a catalog grows tenfold one product at a time', () => {
    let count = chooseShardCount(10_000, 128);
    let reshards = 0;
    for (let products = 10_000; products <= 100_000; products += 1) {
      const next = chooseShardCount(products, 128, count);
      if (next !== count) reshards += 1;
      count = next;
    }
    expect(reshards).toBeGreaterThan(0);
    expect(reshards).toBeLessThanOrEqual(3);
  });

  it("counts the last bundle's shards from its file list", () => {
    const paths = [
      ...[0, 1, 2, 3].map(pageShardPath),
      ...[0, 1].map(productShardPath),
      variantShardPath(0),
      '_live/manifest.json',
      '_live/pages.json',
      '_live/index/root.json',
      'kb/products/green-glow.md',
    ];
    expect(countShards(paths)).toEqual({ pages: 4, products: 2, variants: 1 });
    expect(countShards(['agent-catalog.json'])).toEqual({});
  });

  it('when a last bundle stored product shards plain then they are not counted as this layout', () => {
    expect(productShardPath(0).endsWith('.pack.gz')).toBe(true);
    expect(pageShardPath(0).endsWith('.pack')).toBe(true);
    expect(countShards(['_live/products/0.pack', '_live/products/1.pack', '_live/pages/0.pack.gz'])).toEqual(
      {},
    );
  });

  it('spreads keys evenly over the shards', () => {
    const counts = new Array<number>(64).fill(0);
    for (let index = 0; index < 64_000; index += 1) counts[shardOf(`product-${index}`, 64)] += 1;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1_200);
  });
});
