/**
 * Format 7 stores a term's postings as runs of consecutive products, and its impacts as
 * one byte, when that is smaller (search-term-encoding.ts). Each encoding must read back
 * to exactly the products and impacts written, for sets of every kind; runs that say more
 * or other than the count, or name a product past the catalog, are a broken index; a word
 * every product carries is a few bytes in its file and is never kept decoded in the cache.
 */
import { describe, expect, it } from 'vitest';
import { mapShopifyProduct } from '../../generator/normalise/shopify.js';
import { Leb128Reader } from '../../live/leb128-reader.js';
import { putVarint } from '../../live/leb128-writer.js';
import { PackedStrings } from '../../live/packed-strings.js';
import { buildSearchIndex } from '../../live/search-index-file.js';
import { decodeTerms } from '../../live/search-partition-decode.js';
import { readTermPartition, termPartitionBytes } from '../../live/search-partition-format.js';
import { SearchIndexError } from '../../live/search-partitions.js';
import {
  encodeTerm,
  ONE_IMPACT,
  POSTINGS_AS_RUNS,
  readRuns,
  storedImpacts,
} from '../../live/search-term-encoding.js';
import type { ProductRecord } from '../../record/product-record.js';
import { makeShopifyProduct } from '../fixtures/upstream/make-products.js';
import { idsOf, openIndexOf, SMALL_PARTITIONS } from './partitioned-index.js';
import { loadSearchIndex as loadOldSearchIndex } from './search-oracle/old-search-index.js';
import { makeVariedRecords, seeded } from './varied-catalog.js';

/** Products ascending as LEB128 gaps, the first from 0: how the builder writes them. */
function gapsOf(products: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(5 * products.length);
  let at = 0;
  products.forEach((product, index) => {
    at = putVarint(bytes, at, product - (index === 0 ? 0 : (products[index - 1] as number)));
  });
  return bytes.subarray(0, at);
}

const CATALOG = 100_000;
const range = (start: number, end: number): number[] =>
  Array.from({ length: end - start }, (_, at) => start + at);
const random = seeded(12);
const SETS: [string, number[]][] = [
  ['every product', range(0, CATALOG)],
  ['one product', [41]],
  ['the first product alone', [0]],
  ['the last product alone', [CATALOG - 1]],
  [
    'long runs with holes',
    [...range(3, 40_000), ...range(40_002, 70_000), 70_500, ...range(80_000, CATALOG)],
  ],
  ['runs of two', range(0, 2_000).flatMap((at) => [at * 10, at * 10 + 1])],
  ['every third product', range(0, 30_000).map((at) => at * 3)],
  ['scattered', range(0, CATALOG).filter(() => random() < 0.01)],
  ['most, at random', range(0, CATALOG).filter(() => random() < 0.9)],
];

/** A term's products and impacts read back from its encoding, as the handler reads them. */
function readBack(
  products: readonly number[],
  impacts: Uint8Array,
): { products: number[]; impacts: number[] } {
  const encoded = encodeTerm(gapsOf(products), impacts, products.length);
  const file = termPartitionBytes({
    terms: ['word'],
    counts: [products.length],
    lengths: [encoded.postings.length],
    shapes: Uint8Array.of(encoded.shape),
    postings: encoded.postings,
    impacts: encoded.impacts,
  });
  const { value } = decodeTerms(file, CATALOG, () => undefined);
  const read = value.postings(0).lists();
  return { products: Array.from(read.products), impacts: Array.from(read.impacts) };
}

describe('a term stored as runs or gaps, with one impact or one a product', () => {
  it.each(SETS)('reads back exactly: %s', (_, products) => {
    const varied = Uint8Array.from(products, (product) => 1 + (product % 255));
    expect(readBack(products, varied)).toEqual({ products, impacts: Array.from(varied) });
    const same = new Uint8Array(products.length).fill(7);
    expect(readBack(products, same)).toEqual({ products, impacts: Array.from(same) });
  });

  it('stores whichever is smaller, and one impact byte only when every product has the same', () => {
    const shapeOf = (products: number[], impacts: Uint8Array) =>
      encodeTerm(gapsOf(products), impacts, products.length);
    const every = shapeOf(range(0, CATALOG), new Uint8Array(CATALOG).fill(1));
    expect(every.shape).toBe(POSTINGS_AS_RUNS | ONE_IMPACT);
    expect(every.postings.length + every.impacts.length).toBeLessThan(8);
    const scattered = range(0, 1_000).map((at) => at * 50);
    const sparse = shapeOf(
      scattered,
      Uint8Array.from(scattered, (at) => 1 + (at % 3)),
    );
    expect(sparse.shape).toBe(0);
    expect(sparse.postings).toEqual(gapsOf(scattered));
    expect(sparse.impacts).toHaveLength(1_000);
    // One product: its one impact byte is already one byte.
    expect(shapeOf([5], Uint8Array.of(9)).shape & ONE_IMPACT).toBe(0);
    expect(storedImpacts(ONE_IMPACT, 500)).toBe(1);
    expect(storedImpacts(0, 500)).toBe(500);
  });
});

describe('runs that do not hold what the file says', () => {
  const runs = (...values: number[]): Uint8Array => {
    const bytes = new Uint8Array(5 * values.length);
    let at = 0;
    for (const value of values) at = putVarint(bytes, at, value);
    return bytes.subarray(0, at);
  };
  const what = () => '"word"';

  it.each([
    ['more products than its count', runs(0, 9), 5, /more than 5 products/],
    ['a product past the catalog', runs(95, 9), 10, /names product 104 of 100/],
    ['bytes past its runs', runs(0, 4, 7), 5, /not 3 bytes/],
    ['a run cut short', runs(0), 5, /cut short/],
  ])('is a TypeError naming the term: %s', (_, bytes, size, message) => {
    expect(() => readRuns(bytes, size, 100, what)).toThrow(message);
  });

  it('is a SearchIndexError when the handler decodes it', () => {
    const file = termPartitionBytes({
      terms: ['word'],
      counts: [5],
      lengths: [2],
      shapes: Uint8Array.of(POSTINGS_AS_RUNS),
      postings: runs(98, 4),
      impacts: new Uint8Array(5).fill(1),
    });
    // A partition of one term decodes it at once.
    expect(() => decodeTerms(file, 100, () => undefined).value.postings(0)).toThrow(SearchIndexError);
  });

  it('refuses a shape it does not know', () => {
    const file = termPartitionBytes({
      terms: ['word'],
      counts: [1],
      lengths: [1],
      shapes: Uint8Array.of(4),
      postings: Uint8Array.of(3),
      impacts: Uint8Array.of(1),
    });
    expect(() => readTermPartition(file)).toThrow(/unknown term shape 4/);
  });
});

describe('a word every product carries, in a built index', () => {
  const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };
  const records: ProductRecord[] = range(0, 3_000).map((index) => {
    const outcome = mapShopifyProduct(makeShopifyProduct(index), context);
    if (!outcome.ok) throw new TypeError(outcome.rejected.reason);
    return outcome.product.record;
  });

  it('is a few bytes in its file, and every product is found by it, once, across the pages', async () => {
    const opened = await openIndexOf(buildSearchIndex(records));
    const holding = [...opened.files].find(([name, body]) => {
      if (!name.startsWith('terms/') || typeof body === 'string') return false;
      return readTermPartition(body).text === 'juice';
    });
    expect(holding).toBeDefined();
    const body = holding?.[1] as Uint8Array;
    const { shapes, postings, impacts } = readTermPartition(body);
    expect(shapes[0]).toBe(POSTINGS_AS_RUNS | ONE_IMPACT);
    // As gaps and an impact a product it would be 6,000 bytes of postings alone.
    expect(postings.length + impacts.length).toBeLessThan(16);
    const found = await opened.index.search({ text: 'juice' });
    expect(found).toHaveLength(records.length);
    const ids = await idsOf(opened.index, { text: 'juice' });
    expect(new Set(ids)).toEqual(new Set(records.map((record) => record.id)));
  });

  it('keeps its runs, a few bytes, and makes its lists on each use; a word stored as gaps keeps its lists', () => {
    const every = encodeTerm(gapsOf(range(0, 3_000)), new Uint8Array(3_000).fill(1), 3_000);
    const few = encodeTerm(gapsOf([4, 90, 700]), Uint8Array.of(5, 6, 7), 3);
    const file = termPartitionBytes({
      terms: ['common', 'rare'],
      counts: [3_000, 3],
      lengths: [every.postings.length, few.postings.length],
      shapes: Uint8Array.of(every.shape, few.shape),
      postings: Uint8Array.from([...every.postings, ...few.postings]),
      impacts: Uint8Array.from([...every.impacts, ...few.impacts]),
    });
    const grown: number[] = [];
    const total = () => grown.reduce((sum, bytes) => sum + bytes, 0);
    const { value } = decodeTerms(file, 3_000, (bytes) => grown.push(bytes));
    const common = value.postings(0);
    expect(common.size).toBe(3_000);
    expect(Array.from(common.runs?.bounds ?? [])).toEqual([0, 3_000]);
    const first = common.lists();
    const again = value.postings(0).lists();
    expect(again.products).not.toBe(first.products);
    expect(Array.from(again.products)).toEqual(range(0, 3_000));
    // One run: its bounds and where it starts, 12 bytes, not 3,000 products' 15,000.
    expect(total()).toBe(12);
    const rare = value.postings(1);
    expect(rare.runs).toBeUndefined();
    expect(value.postings(1).lists().products).toBe(rare.lists().products);
    expect(total()).toBe(12 + rare.lists().products.byteLength);
  });
});

/** Reading runs with the LEB128 reader alone, to pin the layout docs/live.md describes. */
describe('the runs layout', () => {
  it('is, per run, the distance from the last run’s end and its length less one', () => {
    const products = [...range(5, 9), ...range(20, 22)];
    const { postings } = encodeTerm(
      gapsOf(products),
      new Uint8Array(products.length).fill(1),
      products.length,
    );
    const reader = new Leb128Reader(postings);
    expect([reader.next(), reader.next(), reader.next(), reader.next()]).toEqual([5, 3, 11, 1]);
    expect(reader.at).toBe(postings.length);
  });
});

/**
 * Words stored as runs confirm the candidates of a rarer word without their lists being
 * made (search-index.ts, `confirmByRuns`): the answers must be the old search's, item for
 * item, for a word in every product but a few (one impact) and one in the first half of
 * the catalog (an impact a product).
 */
describe('names with words stored as runs, against the search the index replaced', () => {
  const records = makeVariedRecords(3_000).map((record, index) => ({
    ...record,
    // "bottled" 1 to 4 times (its impacts differ); a word of 50 products, whose few
    // candidates the runs then confirm and rank.
    description: `${index < 1_500 ? 'bottled '.repeat(1 + (index % 4)) : ''}${index % 500 === 7 ? '' : 'fresh '}${record.description ?? ''} batch${index % 61}`,
  }));
  const file = JSON.parse(JSON.stringify(buildSearchIndex(records)));
  const oracle = loadOldSearchIndex(file);

  it('stores both words as runs, and answers every name with them as the old search does', async () => {
    const opened = await openIndexOf(file, SMALL_PARTITIONS, 64 * 1024);
    const shapeOf = (word: string): number | undefined => {
      for (const [name, body] of opened.files) {
        if (!name.startsWith('terms/') || typeof body === 'string') continue;
        const { text, termLengths, shapes } = readTermPartition(body);
        const terms = PackedStrings.of(text, termLengths);
        const at = terms.lowerBound(word);
        if (terms.at(at) === word) return shapes[at];
      }
      return undefined;
    };
    expect(shapeOf('fresh')).toBe(POSTINGS_AS_RUNS | ONE_IMPACT);
    expect(shapeOf('bottled')).toBe(POSTINGS_AS_RUNS);
    const texts = records
      .filter((_, index) => index % 37 === 0 || index % 500 === 7 || index === 1_499 || index === 1_500)
      .flatMap((record) => [`${record.name} bottled`, `fresh ${record.name}`, `${record.name} fresh bottled`])
      .concat(range(0, 61).flatMap((batch) => [`batch${batch} bottled`, `fresh batch${batch}`]));
    let found = 0;
    for (const text of texts) {
      const expected = Array.from(oracle.search({ text }), (position) => oracle.productId(position));
      expect({ text, ids: await idsOf(opened.index, { text }) }).toEqual({ text, ids: expected });
      found += expected.length > 0 ? 1 : 0;
    }
    expect(texts.length).toBeGreaterThan(200);
    expect(found).toBeGreaterThan(texts.length / 2);
  });
});
