/**
 * The live search index whole, as the generator builds it before cutting it into partitions (search-partitions-file.ts):
 * an inverted index over name, brand, category, description, options and tags, with one
 * precomputed, quantised BM25F impact per posting (field boosts applied at build time), and
 * the filter columns (search-columns-file.ts: category, each variant's price in minor units
 * and availability, and the variants in price order).
 * Postings and impacts are packed bytes in base64, so a 100,000-product index is a few
 * megabytes of text that loads into typed arrays, not a million small JS objects
 * (docs/live.md has the figures). Products are numbered in catalog order; that number is
 * the tie-breaking rank.
 */
import type { ProductRecord } from '../record/product-record.js';
import { ByteWriter } from './byte-writer.js';
import { numberedRecords, type RecordSource } from './record-source.js';
import { buildColumnsFile, type ColumnsFile, type ColumnsRow } from './search-columns-file.js';
import { tokenise } from './search-tokens.js';
import { ucpOffersOf } from './ucp-product.js';

export interface SearchIndexFile extends ColumnsFile {
  format: 3;
  /** Product ids in catalog order: a product's position is its number everywhere below. */
  ids: string[];
  /** The vocabulary, sorted by code unit (so a prefix is a contiguous range). */
  terms: string[];
  /** Per term, how many products carry it. */
  counts: number[];
  /** Per term, the byte length of its postings in `postings`. */
  lengths: number[];
  /** Base64: per term, its product numbers ascending as unsigned LEB128 gaps. */
  postings: string;
  /** Base64: one byte per posting, the term's BM25F impact for that product, 1–255. */
  impacts: string;
}

/** One product as the index sees it: its id, its six fields' text and its filter row. */
export interface SearchRow extends ColumnsRow {
  id: string;
  /** Name, brand, category, description, options (names, values, variant titles), tags. */
  fields: readonly [string, string, string, string, string, string];
}

/** Field boosts, in the order of `SearchRow.fields`: a word in the name says more than one in the description. */
const BOOSTS = [4, 2, 2, 1, 1, 1.5] as const;

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** The fields' count, and the place value of each field's count of a term in a packed count. */
const FIELDS = BOOSTS.length;
const FIELD_UNITS = BOOSTS.map((_, field) => 256 ** field);

/**
 * A term's products, ascending, and per product how often the term is in each field:
 * packed, eight bits a field (`FIELD_UNITS`), or `-(n + 1)` for `wide[n]` once a count
 * passes 255. Weights wait for the fields' average lengths, known after the last product.
 */
interface Posting {
  products: number[];
  counts: number[];
}

/** The search row of a product record: the text of its fields and its offers. */
export function searchRowOf(record: ProductRecord): SearchRow {
  return {
    id: record.id,
    fields: [
      record.name,
      record.brand ?? '',
      record.category ?? '',
      record.description ?? '',
      optionsText(record),
      record.tags.join(' '),
    ],
    category: record.category ?? undefined,
    offers: ucpOffersOf(record),
  };
}

/** Option names and values, then variant titles, a space between each (one list joined once). */
function optionsText(record: ProductRecord): string {
  const words: string[] = [];
  for (const option of record.options) words.push(option.name, ...option.values);
  for (const variant of record.variants) words.push(variant.title);
  return words.join(' ');
}

/** The index of the source's records, in catalog order, read once with `for…of`. */
export function buildSearchIndex(records: RecordSource): SearchIndexFile {
  return buildSearchIndexOfRows(records.length, rowsOf(records));
}

function* rowsOf(records: RecordSource): Generator<SearchRow> {
  for (const [, record] of numberedRecords(records)) yield searchRowOf(record);
}

/**
 * The index of `count` rows in catalog order, each read once and tokenised once, and
 * nothing kept of a row but its id, its filter row and its postings: a caller with a
 * million rows (from a list on disk, or synthetic) need not hold them all.
 */
export function buildSearchIndexOfRows(count: number, rows: Iterable<SearchRow>): SearchIndexFile {
  const lengths = new Uint32Array(count * FIELDS);
  const byTerm = new Map<string, Posting>();
  const wide: number[][] = [];
  const ids: string[] = [];
  const columns: ColumnsRow[] = [];
  const counts = new Map<string, number>();
  let product = 0;
  for (const row of rows) {
    if (product >= count) throw new TypeError(`buildSearchIndexOfRows: more than ${count} rows`);
    ids.push(row.id);
    columns.push({ category: row.category, offers: row.offers });
    counts.clear();
    row.fields.forEach((text, field) => {
      const tokens = tokenise(text);
      lengths[product * FIELDS + field] = tokens.length;
      for (const token of tokens) counts.set(token, countOnce(counts.get(token) ?? 0, field, wide));
    });
    for (const [term, packed] of counts) {
      let posting = byTerm.get(term);
      if (posting === undefined) {
        posting = { products: [], counts: [] };
        byTerm.set(term, posting);
      }
      posting.products.push(product);
      posting.counts.push(packed);
    }
    product += 1;
  }
  if (product < count) throw new TypeError(`buildSearchIndexOfRows: ${product} rows of ${count}`);
  const terms = [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const postings = terms.map((term) => byTerm.get(term) as Posting);
  const impacts = scoreImpacts(postings, fieldShares(lengths, count), wide);
  return {
    format: 3,
    ids,
    ...buildColumnsFile(columns),
    terms,
    counts: postings.map((posting) => posting.products.length),
    ...packPostings(postings, impacts),
  };
}

/** A term's packed counts (`Posting`) with one more in `field`. */
function countOnce(packed: number, field: number, wide: number[][]): number {
  let at = packed;
  if (at >= 0) {
    const unit = FIELD_UNITS[field] as number;
    if (Math.floor(at / unit) % 256 < 255) return at + unit;
    wide.push(FIELD_UNITS.map((place) => Math.floor(packed / place) % 256));
    at = -wide.length;
  }
  const fields = wide[-at - 1] as number[];
  fields[field] = (fields[field] as number) + 1;
  return at;
}

/**
 * Per product and field, what one occurrence of a word there adds to its weight: the
 * field's boost over BM25's length normalisation against the field's average length.
 */
function fieldShares(lengths: Uint32Array, count: number): Float64Array {
  const totals = BOOSTS.map(() => 0);
  lengths.forEach((length, at) => {
    totals[at % FIELDS] = (totals[at % FIELDS] as number) + length;
  });
  const averages = totals.map((total) => total / Math.max(1, count) || 1);
  return Float64Array.from(lengths, (length, at) => {
    const norm = 1 - B + (B * length) / (averages[at % FIELDS] as number);
    return (BOOSTS[at % FIELDS] as number) / norm;
  });
}

/**
 * Each posting's BM25F impact, unquantised. A weight adds one field's share per
 * occurrence, field by field, in the order the words were read, so it is the same sum,
 * to the last bit, as adding them while reading.
 */
function scoreImpacts(postings: readonly Posting[], shares: Float64Array, wide: number[][]): Float64Array[] {
  const count = shares.length / FIELDS;
  return postings.map(({ products, counts }) => {
    const frequency = products.length;
    const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    const impacts = new Float64Array(frequency);
    for (let at = 0; at < frequency; at += 1) {
      const packed = counts[at] as number;
      const base = (products[at] as number) * FIELDS;
      let weight = 0;
      for (let field = 0; field < FIELDS; field += 1) {
        const times =
          packed >= 0
            ? Math.floor(packed / (FIELD_UNITS[field] as number)) % 256
            : ((wide[-packed - 1] as number[])[field] as number);
        const share = shares[base + field] as number;
        for (let time = 0; time < times; time += 1) weight += share;
      }
      impacts[at] = (idf * weight * (K1 + 1)) / (weight + K1);
    }
    return impacts;
  });
}

/** The postings as LEB128 gaps and their impacts quantised to 1–255 against the highest. */
function packPostings(
  postings: readonly Posting[],
  impacts: readonly Float64Array[],
): Pick<SearchIndexFile, 'lengths' | 'postings' | 'impacts'> {
  let highest = 0;
  for (const list of impacts) for (const impact of list) highest = Math.max(highest, impact);
  const postingBytes = new ByteWriter();
  const impactBytes = new ByteWriter();
  const lengths: number[] = [];
  postings.forEach(({ products }, term) => {
    const start = postingBytes.length;
    const list = impacts[term] as Float64Array;
    let previous = 0;
    products.forEach((product, at) => {
      postingBytes.varint(product - previous);
      previous = product;
      const impact = list[at] as number;
      impactBytes.byte(Math.max(1, Math.min(255, Math.round((impact / (highest || 1)) * 255))));
    });
    lengths.push(postingBytes.length - start);
  });
  return { lengths, postings: postingBytes.base64(), impacts: impactBytes.base64() };
}
