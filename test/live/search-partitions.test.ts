/**
 * The partitioned index's reads and writes: a query reads the root once and then only the
 * partitions its words and filters touch (counted through the file reader, against the
 * files' own contents), the cache keeps what fits its byte budget and reads again what it
 * dropped, and one changed product rewrites few of the hundreds of files.
 */
import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../live/byte-lru.js';
import { contentCuts } from '../../live/content-cuts.js';
import { PackedStrings } from '../../live/packed-strings.js';
import { buildSearchIndex } from '../../live/search-index-file.js';
import { readPricePartition, readTermPartition } from '../../live/search-partition-format.js';
import { buildSearchPartitions } from '../../live/search-partitions-file.js';
import type { ProductRecord } from '../../record/product-record.js';
import { builtIndexOf, idsOf, openIndexFiles, openIndexOf, SMALL_PARTITIONS } from './partitioned-index.js';
import { makeVariedRecords } from './varied-catalog.js';

const records = makeVariedRecords(2_000);
/** The terms a term partition's file holds, read as the handler reads them. */
const termsIn = (body: string | Uint8Array): string[] => {
  if (typeof body === 'string') throw new TypeError('a term partition is bytes');
  const { text, termLengths } = readTermPartition(body);
  const terms = PackedStrings.of(text, termLengths);
  return Array.from({ length: terms.length }, (_, at) => terms.at(at) ?? '');
};
/** The first price of a price partition's file. */
const firstPriceOf = (body: string | Uint8Array): number => {
  if (typeof body === 'string') throw new TypeError('a price partition is bytes');
  return readPricePartition(body).first;
};
const kinds = (reads: readonly string[]): Set<string> =>
  new Set(reads.map((name) => name.split('/')[0] ?? ''));

describe('what a query reads', () => {
  it('reads the root alone to open', async () => {
    const { reads } = await openIndexOf(records);
    expect(reads).toEqual(['root.json']);
  });

  it('reads, for a word, the one term partition that holds it and the ids of its page', async () => {
    const { index, reads, files } = await openIndexOf(records);
    const holding = [...files].filter(
      ([name, body]) => name.startsWith('terms/') && termsIn(body).includes('matcha'),
    );
    expect(holding).toHaveLength(1);
    const found = await index.search({ text: 'matcha' });
    expect(found.length).toBeGreaterThan(10);
    const termReads = reads.filter((name) => name.startsWith('terms/'));
    expect(termReads).toEqual([holding[0]?.[0]]);
    expect(kinds(reads)).toEqual(new Set(['root.json', 'terms']));
    await index.productIds(found.subarray(0, 3));
    expect(kinds(reads)).toEqual(new Set(['root.json', 'terms', 'ids']));
    const termFiles = [...files.keys()].filter((name) => name.startsWith('terms/'));
    expect(termFiles.length).toBeGreaterThan(50);
  });

  it('reads, for a narrow price range, only the price partitions around it', async () => {
    const { index, reads, files } = await openIndexOf(records);
    const priceFiles = [...files].filter(([name]) => name.startsWith('prices/'));
    // The partitions whose first price lies within the range, and one before it at most.
    const min = 700;
    const max = 705;
    const within = priceFiles.filter(([, body]) => firstPriceOf(body) >= min && firstPriceOf(body) <= max);
    const found = await index.search({ price: { min, max } });
    expect(found.length).toBeGreaterThan(0);
    const priceReads = reads.filter((name) => name.startsWith('prices/'));
    expect(priceReads.length).toBeLessThanOrEqual(within.length + 1);
    expect(priceReads.length).toBeGreaterThan(0);
    expect(priceFiles.length).toBeGreaterThan(50);
    expect(kinds(reads)).toEqual(new Set(['root.json', 'prices']));
  });

  it('reads a column of spans for a range open at one end that holds much of the catalog', async () => {
    const { index, reads } = await openIndexOf(records);
    expect((await index.search({ price: { min: 700 } })).length).toBeGreaterThan(100);
    expect(kinds(reads)).toEqual(new Set(['root.json', 'spans']));
    expect(
      new Set(reads.filter((name) => name.startsWith('spans/')).map((name) => name.split('-')[0])),
    ).toEqual(new Set(['spans/max']));
  });

  it('reads the facets for a category, not the price or term partitions', async () => {
    const { index, reads } = await openIndexOf(records);
    expect((await index.search({ categories: ['shots'] })).length).toBeGreaterThan(0);
    expect(kinds(reads)).toEqual(new Set(['root.json', 'facets']));
  });

  it('reads, for a typo, a run of the vocabulary forwards and one backwards, then the terms it found', async () => {
    const { index, reads, files } = await openIndexOf(records);
    expect(await idsOf(index, { text: 'pinapple' })).not.toHaveLength(0);
    const count = (folder: string, names: Iterable<string>) =>
      [...names].filter((name) => name.startsWith(`${folder}/`)).length;
    expect(count('vocab', reads)).toBeGreaterThan(0);
    expect(count('rvocab', reads)).toBeGreaterThan(0);
    expect(count('vocab', reads) + count('rvocab', reads)).toBeLessThanOrEqual(6);
    expect(count('vocab', files.keys())).toBeGreaterThan(20);
    // "pineapple" is one letter away: its partition is read for its postings.
    const holding = [...files].find(
      ([name, body]) => name.startsWith('terms/') && termsIn(body).includes('pineapple'),
    );
    expect(reads).toContain(holding?.[0]);
  });
});

describe('what a word read loosely reads', () => {
  it('reads, for a prefix, the partition it would sit in and those holding its terms, no other', async () => {
    const { files } = await openIndexOf(records);
    const partitions = [...files]
      .filter(([name]) => name.startsWith('terms/'))
      .map(([name, body]) => ({ name, terms: termsIn(body) }))
      .sort((a, b) => ((a.terms[0] ?? '') < (b.terms[0] ?? '') ? -1 : 1));
    const vocabulary = partitions.flatMap(({ terms }) => terms);
    const prefixes = [...new Set(vocabulary.map((term) => term.slice(0, 3)))]
      .filter((prefix) => prefix.length === 3 && !vocabulary.includes(prefix))
      .filter((prefix) => vocabulary.filter((term) => term.startsWith(prefix)).length < 64)
      .concat(['qqq', 'zzz', 'aaa']);
    let endsAtTheEnd = 0;
    for (const prefix of prefixes) {
      const sitsIn = partitions.findLastIndex(({ terms }) => (terms[0] ?? '') <= prefix);
      const holding = partitions.filter(({ terms }) => terms.some((term) => term.startsWith(prefix)));
      const expected = new Set([
        ...(sitsIn >= 0 ? [partitions[sitsIn]?.name] : []),
        ...holding.map(({ name }) => name),
      ]);
      // The case a read of the next partition used to be spent on: the run of terms with the
      // prefix ends where a partition ends (or there is none, and the next partition is not one).
      const last = holding.at(-1) ?? partitions[sitsIn];
      if (
        last &&
        last !== partitions.at(-1) &&
        (holding.length === 0 || last.terms.at(-1)?.startsWith(prefix))
      )
        endsAtTheEnd += 1;
      const { index, reads } = await openIndexFiles(files);
      await index.search({ text: prefix });
      const termReads = new Set(reads.filter((name) => name.startsWith('terms/')));
      expect({ prefix, termReads }).toEqual({ prefix, termReads: expected });
    }
    expect(prefixes.length).toBeGreaterThan(20);
    expect(endsAtTheEnd).toBeGreaterThan(3);
  });

  it('reads, for a typo, the vocabulary files holding its halves, no other', async () => {
    const { files } = await openIndexOf(records);
    const listOf = (folder: string) =>
      [...files]
        .filter(([name]) => name.startsWith(`${folder}/`))
        .map(([name, body]) => ({ name, terms: PackedStrings.read(JSON.parse(String(body))) }))
        .map(({ name, terms }) => ({
          name,
          terms: Array.from({ length: terms.length }, (_, at) => terms.at(at) ?? ''),
        }))
        .sort((a, b) => ((a.terms[0] ?? '') < (b.terms[0] ?? '') ? -1 : 1));
    const forwards = listOf('vocab');
    const backwards = listOf('rvocab');
    const filesFor = (list: typeof forwards, prefix: string): Set<string> => {
      const sitsIn = list.findLastIndex(({ terms }) => (terms[0] ?? '') <= prefix);
      return new Set([
        ...(sitsIn >= 0 ? [list[sitsIn]?.name] : []),
        ...list.filter(({ terms }) => terms.some((term) => term.startsWith(prefix))).map(({ name }) => name),
      ]);
    };
    const words = [...new Set(records.flatMap((record) => record.name.toLowerCase().split(' ')))]
      .filter((word) => /^[a-z]{6,}$/.test(word) && !word.endsWith('s'))
      .slice(0, 40);
    for (const word of words) {
      // One letter changed in the middle: neither the word nor a prefix of any term.
      const typo = `${word.slice(0, 3)}q${word.slice(4)}`;
      const half = Math.floor(typo.length / 2);
      const { index, reads: read } = await openIndexFiles(files);
      await index.search({ text: typo });
      const inFolder = (folder: string) => new Set(read.filter((name) => name.startsWith(`${folder}/`)));
      expect({ typo, vocab: inFolder('vocab'), rvocab: inFolder('rvocab') }).toEqual({
        typo,
        vocab: filesFor(forwards, typo.slice(0, half)),
        rvocab: filesFor(backwards, [...typo.slice(half)].reverse().join('')),
      });
    }
    expect(words.length).toBeGreaterThan(10);
  });
});

describe('the cache', () => {
  it('keeps partitions within its budget, reading again what it dropped', async () => {
    const questions = ['ginger', 'lemon', 'kale', 'mango', 'ginger', 'lemon', 'kale', 'mango'];
    const count = async (cacheBytes: number) => {
      const { index, reads } = await openIndexOf(records, SMALL_PARTITIONS, cacheBytes);
      // A different filter each time, so no kept answer short-cuts the search.
      for (const [at, text] of questions.entries()) await index.search({ text, price: { min: at } });
      return reads.filter((name) => name.startsWith('terms/')).length;
    };
    const roomy = await count(64 * 1024 * 1024);
    const tight = await count(1);
    expect(roomy).toBe(4);
    expect(tight).toBe(8);
  });

  it('evicts the least recently used value first', async () => {
    const cache = new ByteLru<string>(10);
    const load = (value: string, bytes: number) => () => Promise.resolve({ value, bytes });
    await cache.get('a', load('a', 4));
    await cache.get('b', load('b', 4));
    await cache.get('a', load('never read', 4));
    await cache.get('c', load('c', 4));
    expect(cache.bytes).toBe(8);
    expect(await cache.get('a', load('read again', 4))).toBe('a');
    expect(await cache.get('b', load('read again', 4))).toBe('read again');
  });
});

describe('a cached value that grows', () => {
  it('counts what a value holds once loaded and drops the least recently used when it grows past the budget', async () => {
    const cache = new ByteLru<string>(10);
    const load = (value: string, bytes: number) => () => Promise.resolve({ value, bytes });
    await cache.get('a', load('a', 3));
    await cache.get('b', load('b', 3));
    cache.grow('b', 2);
    expect(cache.bytes).toBe(8);
    // Past the budget: the least recently used other value goes, never the one that grew.
    cache.grow('b', 4);
    expect(cache.bytes).toBe(9);
    expect(await cache.get('b', load('never read', 9))).toBe('b');
    expect(await cache.get('a', load('read again', 3))).toBe('read again');
    expect(cache.bytes).toBe(3);
    // A value no longer kept is not counted again.
    cache.grow('b', 100);
    expect(cache.bytes).toBe(3);
  });
});

describe('where partitions end', () => {
  it('puts an item larger than the target alone, and keeps the others within twice the target', () => {
    const sizes = Array.from({ length: 400 }, (_, item) => (item === 150 ? 5_000 : 10));
    const starts = contentCuts(
      sizes.length,
      (item) => (item * 2654435761) >>> 0,
      (item) => sizes[item] ?? 0,
      100,
    );
    expect(starts).toContain(150);
    expect(starts).toContain(151);
    const ends = [...starts.slice(1), sizes.length];
    starts.forEach((start, at) => {
      const size = sizes.slice(start, ends[at]).reduce((sum, one) => sum + one, 0);
      if (start !== 150) expect(size).toBeLessThanOrEqual(200);
    });
    expect(starts.length).toBeGreaterThan(20);
  });
});

describe('one changed product', () => {
  const filesOf = (list: readonly ProductRecord[]) =>
    new Map(
      buildSearchPartitions(builtIndexOf(buildSearchIndex(list)), SMALL_PARTITIONS).map((file) => [
        file.name,
        // Bytes compared as text: the same bytes give the same text.
        typeof file.body === 'string' ? file.body : Buffer.from(file.body).toString('latin1'),
      ]),
    );
  const changed = (before: Map<string, string>, after: Map<string, string>): string[] =>
    [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
  const before = filesOf(records);

  it('changes a few price and span files when its price changes', () => {
    const at = 1_234;
    const record = records[at] as ProductRecord;
    const repriced = records.map((one, index) =>
      index === at
        ? { ...record, variants: record.variants.map((variant) => ({ ...variant, price: '7.77' })) }
        : one,
    );
    const changes = changed(before, filesOf(repriced));
    expect(before.size).toBeGreaterThan(300);
    expect(changes.length).toBeGreaterThan(0);
    // The partitions its variants leave and join, its block of each span column, the root.
    expect(changes.length).toBeLessThanOrEqual(2 * record.variants.length + 4 + 1);
    expect(changes.every((name) => /^(prices|spans)\//.test(name) || name === 'root.json')).toBe(true);
  });

  it('changes a few term files when its description changes', () => {
    const at = 777;
    const record = records[at] as ProductRecord;
    const described = records.map((one, index) =>
      index === at ? { ...record, description: `${record.description ?? ''} zucchini` } : one,
    );
    const changes = changed(before, filesOf(described));
    expect(changes.length).toBeGreaterThan(0);
    // Its own words' partitions (their weights move with the description's length), the new
    // word's, a vocabulary file each way, the root: 13 of hundreds here.
    expect(changes.length).toBeLessThanOrEqual(14);
  });
});
