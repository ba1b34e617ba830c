/**
 * The index's builder keeps each product's postings in a byte stream and its filter columns
 * in typed arrays (search-postings-builder.ts, search-columns-file.ts). Read back, the
 * index must hold exactly the catalog's words (each term's products, from the fields'
 * tokens computed here) and the handler must answer from it what the catalog says: each
 * one-off word its product, a word every product carries every product once across its
 * pages, words beyond Latin script their products, price ranges the products with a
 * variant inside.
 */
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from '../../live/base64-bytes.js';
import { Leb128Reader } from '../../live/leb128-reader.js';
import { buildSearchIndex, searchRowOf } from '../../live/search-index-file.js';
import { tokenise } from '../../live/search-tokens.js';
import { COMMON_WORD, makeAwkwardRecords, oneOffWord } from './awkward-catalog.js';
import { idsOf, openIndexOf } from './partitioned-index.js';

const records = makeAwkwardRecords(600);
const index = buildSearchIndex(records);
const { index: opened } = await openIndexOf(index);

/** Per term, the products whose fields carry it, ascending: from the records, not the index. */
function expectedPostings(): Map<string, number[]> {
  const byTerm = new Map<string, number[]>();
  records.forEach((record, product) => {
    const terms = new Set(searchRowOf(record).fields.flatMap((text) => tokenise(text)));
    for (const term of terms) byTerm.set(term, [...(byTerm.get(term) ?? []), product]);
  });
  return byTerm;
}

/** Per term of the index, its products read back from the LEB128 gaps. */
function decodedPostings(): Map<string, number[]> {
  const reader = new Leb128Reader(base64ToBytes(index.postings));
  const decoded = new Map<string, number[]>();
  index.terms.forEach((term, position) => {
    const end = reader.at + (index.lengths[position] as number);
    const products: number[] = [];
    for (let product = 0; reader.at < end; ) {
      product += reader.next();
      products.push(product);
    }
    decoded.set(term, products);
  });
  expect(reader.at).toBe(base64ToBytes(index.postings).length);
  return decoded;
}

/** Prices in minor units, as the catalog spells them. */
const amountsOf = (record: (typeof records)[number]): number[] =>
  record.variants.map((variant) => Math.round(Number(variant.price) * 100));

describe('the index built from a byte stream of postings', () => {
  it('holds every word of the catalog with exactly the products that carry it', () => {
    const expected = expectedPostings();
    expect(index.terms).toEqual([...expected.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(decodedPostings()).toEqual(expected);
    expect(index.counts).toEqual(index.terms.map((term) => expected.get(term)?.length));
    expect(index.terms).toContain('緑茶');
    expect(expected.get(COMMON_WORD)).toHaveLength(records.length);
  });

  it('scores every posting with one byte from 1 to 255, the highest 255', () => {
    const impacts = base64ToBytes(index.impacts);
    expect(impacts.length).toBe(index.counts.reduce((sum, count) => sum + count, 0));
    expect(Math.min(...impacts)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...impacts)).toBe(255);
  });

  it('keeps every variant’s price and availability in catalog order', () => {
    expect(index.variants).toEqual(records.map((record) => record.variants.length));
    expect(index.prices).toEqual(records.flatMap(amountsOf));
    expect(index.available).toBe(
      records
        .flatMap((record) => record.variants.map((v) => (v.availability === 'in_stock' ? '1' : '0')))
        .join(''),
    );
  });

  it('finds each one-off word’s product alone', async () => {
    for (const product of [0, 1, 3, 250, 599]) {
      expect(await idsOf(opened, { text: oneOffWord(product) })).toEqual([records[product]?.id]);
    }
  });

  it('finds every product once, page after page, for a word they all carry', async () => {
    const answer = await opened.search({ text: COMMON_WORD });
    const pages: string[] = [];
    for (let start = 0; start < answer.length; start += 25) {
      pages.push(...(await opened.productIds(answer.subarray(start, start + 25))));
    }
    expect(pages).toHaveLength(records.length);
    expect(new Set(pages)).toEqual(new Set(records.map((record) => record.id)));
  });

  it('finds words beyond Latin script in the products that carry them', async () => {
    for (const word of ['緑茶', 'الطاقة', 'τσάι', 'зелёный', 'acai']) {
      const carriers = records.filter((record) => tokenise(record.name).includes(tokenise(word)[0] ?? ''));
      expect(carriers.length).toBeGreaterThan(0);
      expect(new Set(await idsOf(opened, { text: word }))).toEqual(
        new Set(carriers.map((record) => record.id)),
      );
    }
  });

  it('answers a price range, with and without a word, by the variants inside it', async () => {
    for (const price of [{ min: 500, max: 900 }, { min: 1_800 }, { max: 300 }]) {
      const inside = (record: (typeof records)[number]): boolean =>
        amountsOf(record).some((amount) => amount >= (price.min ?? 0) && amount <= (price.max ?? Infinity));
      const expected = records.filter(inside).map((record) => record.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(new Set(await idsOf(opened, { price }))).toEqual(new Set(expected));
      expect(new Set(await idsOf(opened, { text: COMMON_WORD, price }))).toEqual(new Set(expected));
    }
  });
});
