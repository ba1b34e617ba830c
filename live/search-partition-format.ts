/**
 * The live search index as partition files (format 5), the layout Pagefind uses: a small
 * root that says which file holds what, and files the handler reads only when a query
 * needs them (docs/live.md). Names here are relative to the index's folder; live-files.ts
 * owns where that folder sits in the bundle.
 *
 * - `root.json`: the product count, the categories, the price span, the first term of
 *   each term partition, the first price of each price partition, the word lengths.
 * - `terms/<name>.json`: a run of the sorted vocabulary with each term's postings (product
 *   numbers as LEB128 gaps) and impact bytes, cut where a term's hash says so and named
 *   by the hash of its first term, so a changed product moves few boundaries and renames
 *   no other file.
 * - `vocab/<name>.json` and `rvocab/<name>.json`: the vocabulary alone, sorted, and each
 *   term spelled backwards, sorted, for the one-typo match: a term one edit away from a
 *   word starts with the word's first half or ends with the rest, so its candidates are
 *   two runs of these lists, not the whole vocabulary.
 * - `prices/<name>.json`: every variant in (price, variant number) order, as the product
 *   number and availability, with the prices as gaps; cut and named by content like the
 *   terms.
 * - `facets/<n>.json`: per product, its category and whether it has any variant and any
 *   variant that can be bought now, for a block of products in catalog order.
 * - `spans/<column>-<n>.json`: per product, its highest or lowest variant price (of all
 *   its variants, or of those that can be bought now), for the same blocks: a range open
 *   at one end ("from $x", "under $y") is one comparison per product, not a pass over
 *   the variants within it.
 * - `ids/<n>.json`: the product ids of a block of products in catalog order, their common
 *   prefix written once.
 *
 * Lists of strings (a partition's terms, a vocabulary file, a block's ids) are packed
 * (packed-strings.ts): one string and each item's length. Format 4 wrote them as JSON
 * arrays, whose thousands of small strings made parsing a quarter of a query's CPU.
 */
import type { PackedStringsFile } from './packed-strings.js';

export const SEARCH_INDEX_FORMAT = 5;
export const ROOT_FILE = 'root.json';

export interface SearchRoot {
  format: typeof SEARCH_INDEX_FORMAT;
  products: number;
  /** How many variants the price partitions hold between them. */
  variants: number;
  /** Products per `ids/<n>.json`. */
  ids_block: number;
  /** Products per `facets/<n>.json`. */
  facets_block: number;
  /** Distinct categories, lower-cased ("" for none); a facet names one by position. */
  categories: string[];
  /** The lowest and highest variant price in minor units; null when no product has a variant. */
  price_span: [number, number] | null;
  /** The first term of each term partition, ascending. */
  terms: string[];
  /** Each term partition's name: `terms/<name>.json`. */
  term_files: string[];
  /** The first term of each `vocab/<name>.json`, ascending, and their names. */
  vocab: string[];
  vocab_files: string[];
  /** The first reversed term of each `rvocab/<name>.json`, ascending, and their names. */
  rvocab: string[];
  rvocab_files: string[];
  /** The first price of each price partition, ascending. */
  prices: number[];
  /** Each price partition's name: `prices/<name>.json`. */
  price_files: string[];
}

export interface TermPartitionFile {
  terms: PackedStringsFile;
  /** Per term, how many products carry it. */
  counts: number[];
  /** Per term, the byte length of its postings. */
  lengths: number[];
  /** Base64: per term, its product numbers ascending as unsigned LEB128 gaps. */
  postings: string;
  /** Base64: one byte per posting, the term's BM25F impact for that product, 1–255. */
  impacts: string;
}

export interface PricePartitionFile {
  /** The price of the first entry. */
  first: number;
  /** Base64: per entry, its price less the previous entry's (0 for the first) as unsigned LEB128. */
  steps: string;
  /** Base64: per entry, `product number × 2 + (1 when the variant can be bought now)`, 32-bit little-endian. */
  entries: string;
}

export interface FacetsFile {
  /** Base64: per product, `category × 4 + 2 × (has a variant) + (has one that can be bought now)`, 32-bit little-endian. */
  facets: string;
}

/** A product's facet bits. */
export const HAS_VARIANT = 2;
export const HAS_AVAILABLE = 1;

export const termFile = (name: string): string => `terms/${name}.json`;
export const vocabFile = (name: string): string => `vocab/${name}.json`;
export const reversedVocabFile = (name: string): string => `rvocab/${name}.json`;

/** A string's UTF-16 code units in reverse order: the same on both sides, so it sorts and matches consistently. */
export function reversed(text: string): string {
  let backwards = '';
  for (let index = text.length - 1; index >= 0; index -= 1) backwards += text[index];
  return backwards;
}
export const priceFile = (name: string): string => `prices/${name}.json`;
export const facetsFile = (block: number): string => `facets/${block}.json`;
export const idsFile = (block: number): string => `ids/${block}.json`;

export interface IdsFile {
  /** What every id of the block starts with. */
  prefix: string;
  /** Each id without the prefix, in catalog order. */
  ids: PackedStringsFile;
}

/** The span columns: a product's highest or lowest price, of all its variants or of those bought now. */
export type SpanColumn = 'max' | 'max-available' | 'min' | 'min-available';
export const SPAN_COLUMNS: readonly SpanColumn[] = ['max', 'max-available', 'min', 'min-available'];
export const spanFile = (column: SpanColumn, block: number): string => `spans/${column}-${block}.json`;

export interface SpanFile {
  /** Base64: per product, the price as a 64-bit little-endian float (-Infinity or Infinity for none). */
  values: string;
}
