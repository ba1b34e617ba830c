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
import { numberedRecords, type RecordSource } from './record-source.js';
import {
  type BuiltColumns,
  ColumnsBuilder,
  type ColumnsFile,
  type ColumnsRow,
  columnsFileOf,
} from './search-columns-file.js';
import { type BuiltPostings, PostingsBuilder, packedPostingsOf } from './search-postings-builder.js';
import { tokenise } from './search-tokens.js';
import { StringChunks, type StringList } from './string-chunks.js';
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

/**
 * The index as the builder hands it to the partition writer (search-partitions-file.ts):
 * the same values as the file, in typed arrays and bytes, not JSON numbers and base64.
 */
export interface BuiltSearchIndex extends BuiltColumns, BuiltPostings {
  /** Product ids in catalog order (an array, or the builder's chunks: string-chunks.ts). */
  ids: StringList;
}

/** One product as the index sees it: its id, its six fields' text and its filter row. */
export interface SearchRow extends ColumnsRow {
  id: string;
  /** Name, brand, category, description, options (names, values, variant titles), tags. */
  fields: readonly [string, string, string, string, string, string];
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

/** The index file of the source's records, in catalog order, read once with `for…of`. */
export function buildSearchIndex(records: RecordSource): SearchIndexFile {
  return searchIndexFileOf(buildSearchIndexOfRows(records.length, rowsOf(records)));
}

/** The index as the whole file writes it (format 3: numbers as JSON, bytes as base64). */
export function searchIndexFileOf(index: BuiltSearchIndex): SearchIndexFile {
  const ids = Array.from({ length: index.ids.length }, (_, product) => index.ids.at(product) as string);
  return { format: 3, ids, ...columnsFileOf(index), ...packedPostingsOf(index) };
}

function* rowsOf(records: RecordSource): Generator<SearchRow> {
  for (const [, record] of numberedRecords(records)) yield searchRowOf(record);
}

/**
 * The index of `count` rows in catalog order, each read once and tokenised once, and
 * nothing kept of a row but its id, its filter columns and its postings, in typed arrays
 * and one byte stream (search-postings-builder.ts): a caller with a million rows (from a
 * list on disk, or synthetic) need not hold them all, nor an object per term or product.
 */
export function buildSearchIndexOfRows(count: number, rows: Iterable<SearchRow>): BuiltSearchIndex {
  const postings = new PostingsBuilder(count);
  const columns = new ColumnsBuilder(count);
  const ids = new StringChunks(count);
  for (const row of rows) {
    if (ids.length >= count) throw new TypeError(`buildSearchIndexOfRows: more than ${count} rows`);
    ids.push(row.id);
    columns.add(row);
    postings.addProduct(row.fields.map(tokenise));
  }
  if (ids.length < count) throw new TypeError(`buildSearchIndexOfRows: ${ids.length} rows of ${count}`);
  return { ids, ...columns.finish(), ...postings.finish() };
}
