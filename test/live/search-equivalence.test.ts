/**
 * The shipped search against the one it replaced (test/live/search-oracle/, main before the
 * price order, over the whole index in one file), the shipped one reading the same index
 * cut into hundreds of small partitions, for a varied 3,000-product catalog: every query's
 * answer, item for item and in order (which fixes every cursor page, since a cursor is an
 * offset into that order), for names, words, prefixes, typos, partial matches, price
 * ranges wide and narrow with and without text, categories and availability. Then the
 * cursor pages themselves through the live core, and every product found by its name.
 */
import { describe, expect, it } from 'vitest';
import { buildLiveFiles } from '../../live/live-files.js';
import { buildSearchIndex, type SearchQuery } from '../../live/search-index.js';
import { liveBundleOf, liveFetch, liveFileArtifacts } from './live-bundle.js';
import { openIndexOf, SMALL_PARTITIONS, idsOf as shippedIdsOf } from './partitioned-index.js';
import { loadSearchIndex as loadOldSearchIndex } from './search-oracle/old-search-index.js';
import { makeVariedRecords, seeded } from './varied-catalog.js';

const records = makeVariedRecords(3_000);
const file = JSON.parse(JSON.stringify(buildSearchIndex(records)));
// A small cache too, so partitions are dropped and read again while the queries run.
const opened = await openIndexOf(file, SMALL_PARTITIONS, 64 * 1024);
const shipped = opened.index;
const oracle = loadOldSearchIndex(file);
const oracleIdsOf = (query: SearchQuery): string[] =>
  Array.from(oracle.search(query), (position) => oracle.productId(position) ?? '?');

function makeQueries(): SearchQuery[] {
  const random = seeded(4);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const record = () => pick(records);
  const word = () => pick(record().name.split(' '));
  const price = () => Math.round(Number(pick(record().variants).price) * 100);
  const texts = [
    ...Array.from({ length: 40 }, () => record().name),
    ...Array.from({ length: 40 }, word),
    ...Array.from({ length: 20 }, () => `${word()} ${word()}`),
    ...Array.from({ length: 15 }, () => word().slice(0, 3)),
    ...Array.from({ length: 15 }, () => `${word()}x`),
    // Typos in a word's first half: only its second half finds the terms one edit away.
    ...Array.from({ length: 15 }, () => word().slice(1)),
    ...Array.from({ length: 15 }, () => `q${word()}`),
    ...Array.from({ length: 15 }, () => {
      const spelled = word();
      return `${spelled.slice(0, 1)}z${spelled.slice(2)}`;
    }),
    'ginger shot under 5 dollars',
    'GINGER Shots',
    'nothing-matches-this',
    '',
  ];
  const prices: SearchQuery['price'][] = [
    undefined,
    { min: 0 },
    { max: 150 },
    { min: 1200 },
    { min: 300, max: 500 },
    { min: 1000, max: 900 },
    { min: 100_000 },
    ...Array.from({ length: 20 }, () => {
      const at = price();
      return { min: at, max: at };
    }),
    ...Array.from({ length: 20 }, () => {
      const at = 100 + Math.floor(random() * 1_500);
      return { min: at, max: at + 30 };
    }),
    ...Array.from({ length: 20 }, () => {
      const [a, b] = [price(), price()];
      return { min: Math.min(a, b), max: Math.max(a, b) };
    }),
  ];
  const categories = [undefined, ['juice'], [' Shots '], ['Tonics', 'gift boxes'], [''], ['no such'], []];
  const queries: SearchQuery[] = [];
  for (const text of texts) {
    queries.push({ text });
    queries.push({
      text,
      price: pick(prices),
      categories: pick(categories),
      available: pick([undefined, true, false]),
    });
  }
  for (const range of prices) {
    for (const available of [undefined, true, false]) queries.push({ price: range, available });
    queries.push({ price: range, categories: pick(categories) });
    queries.push({ text: word(), price: range, available: true });
    queries.push({ text: 'juice', price: range });
  }
  for (const category of categories)
    queries.push({ categories: category }, { categories: category, available: true });
  return queries;
}

describe('the search is the one it replaced, item for item', () => {
  const queries = makeQueries();

  it('reads a partitioned index: many files, each query only some of them', () => {
    expect(opened.files.size).toBeGreaterThan(300);
  });

  it('answers every query with the same products in the same order', async () => {
    let nonEmpty = 0;
    for (const query of queries) {
      const expected = oracleIdsOf(query);
      expect({ query, ids: await shippedIdsOf(shipped, query) }).toEqual({ query, ids: expected });
      if (expected.length > 0) nonEmpty += 1;
    }
    // The comparison means something only if most questions have answers.
    expect(queries.length).toBeGreaterThan(500);
    expect(nonEmpty).toBeGreaterThan(queries.length / 2);
  });

  it('finds every product by its name, first among equals as before', async () => {
    for (const record of records) {
      const query = { text: record.name };
      const ids = await shippedIdsOf(shipped, query);
      expect(ids).toContain(record.id);
      expect(ids).toEqual(oracleIdsOf(query));
    }
  });

  it('pages through the live core with cursors exactly along the old order', async () => {
    const files = buildLiveFiles(
      records,
      {
        generated: '2026-11-26T12:00:00.000Z',
        base_path: '',
        site_url: 'https://juice.example',
        allowed_origins: [],
        requests_per_minute: 600,
        policy_headers: [],
        server: { name: 'juice-catalog', title: 'Juice catalog', version: '1' },
        instructions: 'Test catalog.',
      },
      { indexSizes: SMALL_PARTITIONS },
    );
    const bundle = await liveBundleOf(liveFileArtifacts(files), records, {
      site_url: 'https://juice.example',
      base_url: 'https://juice.example',
    });
    const call = liveFetch(bundle);
    const paged = [
      { query: 'juice', filters: { price: { min: 300, max: 700 } } },
      { filters: { price: { max: 200 }, available: true } },
      { query: 'ginger lemon', filters: { categories: ['Juice'] } },
    ];
    for (const request of paged) {
      const ids: string[] = [];
      let cursor: string | undefined;
      let total = -1;
      for (let pages = 0; pages < 200; pages += 1) {
        const response = await call('https://juice.example/ucp/catalog/search', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...request, pagination: { limit: 25, ...(cursor ? { cursor } : {}) } }),
        });
        const answer = (await response.json()) as {
          products: { id: string }[];
          pagination: { cursor?: string; total_count: number };
        };
        ids.push(...answer.products.map((product) => product.id));
        total = answer.pagination.total_count;
        cursor = answer.pagination.cursor;
        if (!cursor) break;
      }
      const expected = oracleIdsOf({
        text: request.query,
        price: request.filters.price,
        categories: request.filters.categories,
        available: request.filters.available,
      });
      expect(expected.length).toBeGreaterThan(25);
      expect(total).toBe(expected.length);
      expect(ids).toEqual(expected);
    }
  });
});
