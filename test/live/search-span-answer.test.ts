/**
 * A price range open at one end with no words is counted, and its pages written out one at
 * a time (live/search-span-answer.ts): against the search it replaced
 * (test/live/search-oracle/), over an index cut into many blocks, every page of every such
 * range (from and under, bought now or not, with and without categories) holds the same
 * products as the old answer's slice, and the count is the old answer's length.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type SearchQuery } from '../../live/search-index.js';
import { SpanAnswer } from '../../live/search-span-answer.js';
import { openIndexOf, SMALL_PARTITIONS } from './partitioned-index.js';
import { loadSearchIndex as loadOldSearchIndex } from './search-oracle/old-search-index.js';
import { makeVariedRecords } from './varied-catalog.js';

const records = makeVariedRecords(3_000);
const file = JSON.parse(JSON.stringify(buildSearchIndex(records)));
const { index } = await openIndexOf(file, SMALL_PARTITIONS, 64 * 1024);
const oracle = loadOldSearchIndex(file);
const oracleIdsOf = (query: SearchQuery): string[] =>
  Array.from(oracle.search(query), (position) => oracle.productId(position) ?? '?');

const queries: SearchQuery[] = [200, 450, 700, 1_200].flatMap((at) =>
  [undefined, true].flatMap((available) =>
    [undefined, ['juice'], ['Tonics', 'gift boxes']].flatMap((categories) => [
      { price: { min: at }, available, categories },
      { price: { max: at }, available, categories },
    ]),
  ),
);

describe('a price range open at one end, no words', () => {
  it('is counted, not written out, over blocks of the catalog', async () => {
    const answer = await index.search({ price: { min: 450 } });
    expect(answer).toBeInstanceOf(SpanAnswer);
    expect(answer.length).toBeGreaterThan(SMALL_PARTITIONS.facetsBlock * 4);
  });

  it('has every page of the old answer, at any offset', async () => {
    let counted = 0;
    for (const query of queries) {
      const expected = oracleIdsOf(query);
      const answer = await index.search(query);
      if (answer instanceof SpanAnswer) counted += 1;
      expect({ query, length: answer.length }).toEqual({ query, length: expected.length });
      for (const [start, end] of [
        [0, 10],
        [0, expected.length],
        [5, 37],
        [127, 130],
        [expected.length - 3, expected.length + 10],
        [expected.length + 5, expected.length + 15],
      ] as const) {
        const page = await index.productIds(answer.subarray(start, end));
        expect({ query, start, page }).toEqual({ query, start, page: expected.slice(start, end) });
      }
      // Counted from the end, as a typed array's `subarray` does.
      expect(await index.productIds(answer.subarray(-4))).toEqual(expected.slice(-4));
    }
    // Most of these ranges hold much of the catalog: they are the ones counted.
    expect(counted).toBeGreaterThan(queries.length / 2);
  });
});
