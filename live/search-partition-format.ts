/**
 * The live search index as partition files (format 8), the layout Pagefind uses: a small
 * root that says which file holds what, and files the handler reads only when a query
 * needs them (docs/live.md). Names here are relative to the index's folder; live-files.ts
 * owns where that folder sits in the bundle.
 *
 * Every file but the root is stored gzipped, its name ending in `.gz` (below).
 *
 * - `root.json`: the product count, the categories, the price span, the first term of
 *   each term partition, the first price of each price partition, the word lengths.
 * - `terms/<name>.bin`: a run of the sorted vocabulary with each term's postings (product
 *   numbers as LEB128 gaps, or as runs of consecutive products) and impact bytes (or one
 *   for all), cut where a term's hash says so and named by the hash of its first term, so
 *   a changed product moves few boundaries and renames no other file.
 * - `vocab/<name>.json` and `rvocab/<name>.json`: the vocabulary alone, sorted, and each
 *   term spelled backwards, sorted, for the one-typo match: a term one edit away from a
 *   word starts with the word's first half or ends with the rest, so its candidates are
 *   two runs of these lists, not the whole vocabulary.
 * - `prices/<name>.bin`: every variant in (price, variant number) order, as the product
 *   number and availability, with the prices as gaps; cut and named by content like the
 *   terms.
 * - `facets/<n>.bin`: per product, its category and whether it has any variant and any
 *   variant that can be bought now, for a block of products in catalog order.
 * - `spans/<column>-<n>.bin`: per product, its highest or lowest variant price (of all
 *   its variants, or of those that can be bought now), for the same blocks: a range open
 *   at one end ("from $x", "under $y") is one comparison per product, not a pass over
 *   the variants within it.
 * - `ids/<n>.json`: the product ids of a block of products in catalog order, their common
 *   prefix written once.
 *
 * Lists of strings (a vocabulary file, a block's ids) are packed JSON (packed-strings.ts):
 * one string and each item's length. Format 4 wrote them as JSON arrays, whose thousands
 * of small strings made parsing a quarter of a query's CPU. The `.bin` files are typed
 * sections (binary-sections.ts), read as bytes into typed arrays: format 5 wrote them as
 * JSON with base64 strings, and reading the text, parsing it and decoding the base64 was
 * a third of a query's CPU at 1,000,000 products (BENCHMARKS.md). Their layouts are below.
 * Format 7 stores a term's postings as runs, and its impacts as one byte, when smaller
 * (search-term-encoding.ts): a word in every product was 2 MB at 1,000,000 products.
 * Format 8 stores every file but the root gzipped.
 */
import { SectionReader, SectionWriter } from './binary-sections.js';
import type { PackedStringsFile } from './packed-strings.js';
import { expectShape, storedImpacts } from './search-term-encoding.js';

export const SEARCH_INDEX_FORMAT = 8;
export const ROOT_FILE = 'root.json';

export interface SearchRoot {
  format: typeof SEARCH_INDEX_FORMAT;
  products: number;
  /** How many variants the price partitions hold between them. */
  variants: number;
  /** Products per `ids/<n>.json`. */
  ids_block: number;
  /** Products per `facets/<n>.bin` and `spans/<column>-<n>.bin`. */
  facets_block: number;
  /** Distinct categories, lower-cased ("" for none); a facet names one by position. */
  categories: string[];
  /** The lowest and highest variant price in minor units; null when no product has a variant. */
  price_span: [number, number] | null;
  /** The first term of each term partition, ascending. */
  terms: string[];
  /** Each term partition's name: `terms/<name>.bin`. */
  term_files: string[];
  /** The first term of each `vocab/<name>.json`, ascending, and their names. */
  vocab: string[];
  vocab_files: string[];
  /** The first reversed term of each `rvocab/<name>.json`, ascending, and their names. */
  rvocab: string[];
  rvocab_files: string[];
  /** The first price of each price partition, ascending. */
  prices: number[];
  /** Each price partition's name: `prices/<name>.bin`. */
  price_files: string[];
}

/**
 * A term partition (`terms/<name>.bin`), its sections in this order:
 * - 32-bit: the number of terms n, and the byte length of their text;
 * - 32-bit × n: per term, how many products carry it;
 * - 32-bit × n: per term, the byte length of its postings;
 * - 32-bit × n: per term, its length in UTF-16 code units;
 * - n bytes: per term, its shape (search-term-encoding.ts: bit 1, postings as runs;
 *   bit 2, one impact byte for all its products);
 * - the terms end to end, UTF-8 (words of letters and digits: no lone surrogate);
 * - per term, its product numbers ascending as unsigned LEB128 gaps, or as runs;
 * - per term, one byte per product, its BM25F impact for that product, 1–255 (one byte
 *   alone when its shape says so).
 */
export interface TermPartitionFile {
  terms: readonly string[];
  counts: ArrayLike<number>;
  lengths: ArrayLike<number>;
  shapes: Uint8Array;
  postings: Uint8Array;
  impacts: Uint8Array;
}

/**
 * A price partition (`prices/<name>.bin`), its sections in this order:
 * - 64-bit float: the price of the first entry, in minor units;
 * - 32-bit: the number of entries n;
 * - 32-bit × n: per entry, `product number × 2 + (1 when the variant can be bought now)`;
 * - per entry, its price less the previous entry's (0 for the first) as unsigned LEB128.
 */
export interface PricePartitionFile {
  first: number;
  entries: Uint32Array;
  steps: Uint8Array;
}

/**
 * A product's facet bits. `facets/<n>.bin` is, per product of the block, 32-bit,
 * `category × 4 + 2 × (has a variant) + (has one that can be bought now)`;
 * `spans/<column>-<n>.bin` is, per product of the block, a 64-bit float, the price
 * (-Infinity or Infinity for none).
 */
export const HAS_VARIANT = 2;
export const HAS_AVAILABLE = 1;

/**
 * Every file but the root is stored gzipped (`.gz`), compressed by the bundle's writer
 * when its bytes changed and unpacked by the partition store: `wrangler pages dev` hands an
 * asset to the worker at about 0.1 ms a kilobyte, and gzip makes a term partition a
 * fifth, a span block a quarter, a price partition half (BENCHMARKS.md). The contents
 * are as described here.
 */
const GZ = '.gz';
export const termFile = (name: string): string => `terms/${name}.bin${GZ}`;
export const vocabFile = (name: string): string => `vocab/${name}.json${GZ}`;
export const reversedVocabFile = (name: string): string => `rvocab/${name}.json${GZ}`;

/** A string's UTF-16 code units in reverse order: the same on both sides, so it sorts and matches consistently. */
export function reversed(text: string): string {
  let backwards = '';
  for (let index = text.length - 1; index >= 0; index -= 1) backwards += text[index];
  return backwards;
}
export const priceFile = (name: string): string => `prices/${name}.bin${GZ}`;
export const facetsFile = (block: number): string => `facets/${block}.bin${GZ}`;
export const idsFile = (block: number): string => `ids/${block}.json${GZ}`;

export interface IdsFile {
  /** What every id of the block starts with. */
  prefix: string;
  /** Each id without the prefix, in catalog order. */
  ids: PackedStringsFile;
}

/** The span columns: a product's highest or lowest price, of all its variants or of those bought now. */
export type SpanColumn = 'max' | 'max-available' | 'min' | 'min-available';
export const SPAN_COLUMNS: readonly SpanColumn[] = ['max', 'max-available', 'min', 'min-available'];
export const spanFile = (column: SpanColumn, block: number): string => `spans/${column}-${block}.bin${GZ}`;

export function termPartitionBytes(file: TermPartitionFile): Uint8Array {
  const text = new TextEncoder().encode(file.terms.join(''));
  return new SectionWriter()
    .uint32s([file.terms.length, text.length])
    .uint32s(file.counts)
    .uint32s(file.lengths)
    .uint32s(file.terms.map((term) => term.length))
    .bytes(file.shapes)
    .bytes(text)
    .bytes(file.postings)
    .bytes(file.impacts)
    .finish();
}

/** A term partition's sections, its terms as one text and their lengths (not yet checked against each other). */
export function readTermPartition(bytes: Uint8Array): {
  text: string;
  termLengths: Uint32Array;
  counts: Uint32Array;
  lengths: Uint32Array;
  shapes: Uint8Array;
  postings: Uint8Array;
  impacts: Uint8Array;
} {
  const file = new SectionReader(bytes);
  const [terms = 0, textBytes = 0] = file.uint32s(2, 'header');
  const counts = file.uint32s(terms, 'counts');
  const lengths = file.uint32s(terms, 'postings lengths');
  const termLengths = file.uint32s(terms, 'term lengths');
  const shapes = file.take(terms, 'shapes');
  const text = new TextDecoder('utf-8', { fatal: true }).decode(file.take(textBytes, 'terms'));
  let postingBytes = 0;
  let impactBytes = 0;
  for (let term = 0; term < terms; term += 1) {
    const shape = shapes[term] as number;
    expectShape(shape);
    postingBytes += lengths[term] as number;
    impactBytes += storedImpacts(shape, counts[term] as number);
  }
  const postings = file.take(postingBytes, 'postings');
  const impacts = file.take(impactBytes, 'impacts');
  file.end();
  return { text, termLengths, counts, lengths, shapes, postings, impacts };
}

export function pricePartitionBytes(file: PricePartitionFile): Uint8Array {
  return new SectionWriter()
    .float64s([file.first])
    .uint32s([file.entries.length])
    .uint32s(file.entries)
    .bytes(file.steps)
    .finish();
}

export function readPricePartition(bytes: Uint8Array): PricePartitionFile {
  const file = new SectionReader(bytes);
  const [first = Number.NaN] = file.float64s(1, 'first price');
  const [count = 0] = file.uint32s(1, 'entry count');
  const entries = file.uint32s(count, 'entries');
  return { first, entries, steps: file.rest() };
}
