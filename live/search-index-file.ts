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
import { buildColumnsFile, type ColumnsFile, type ColumnsRow } from './search-columns-file.js';
import { tokenise } from './search-tokens.js';
import { toUcpProduct } from './ucp-product.js';

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

interface Posting {
  products: number[];
  weights: number[];
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
      [
        ...record.options.flatMap((option) => [option.name, ...option.values]),
        ...record.variants.map((variant) => variant.title),
      ].join(' '),
      record.tags.join(' '),
    ],
    category: record.category ?? undefined,
    offers: toUcpProduct(record).variants.map((variant) => ({
      amount: variant.price.amount,
      available: variant.availability.available,
    })),
  };
}

/** The index of these records, in catalog order. */
export function buildSearchIndex(records: readonly ProductRecord[]): SearchIndexFile {
  return buildSearchIndexOfRows(records.length, (product) => searchRowOf(records[product] as ProductRecord));
}

/**
 * The index of `count` rows in catalog order, read through `rowAt` twice (field lengths
 * first, then weights), so a caller with a million synthetic rows need not hold them all.
 */
export function buildSearchIndexOfRows(
  count: number,
  rowAt: (product: number) => SearchRow,
): SearchIndexFile {
  const totals = BOOSTS.map(() => 0);
  for (let product = 0; product < count; product += 1) {
    rowAt(product).fields.forEach((text, field) => {
      totals[field] = (totals[field] ?? 0) + tokenise(text).length;
    });
  }
  const averages = totals.map((total) => total / Math.max(1, count) || 1);
  const byTerm = new Map<string, Posting>();
  const ids: string[] = [];
  const rows: ColumnsRow[] = [];
  for (let product = 0; product < count; product += 1) {
    const row = rowAt(product);
    ids.push(row.id);
    rows.push({ category: row.category, offers: row.offers });
    const weights = new Map<string, number>();
    row.fields.forEach((text, field) => {
      const tokens = tokenise(text);
      const boost = BOOSTS[field] ?? 1;
      const norm = 1 - B + (B * tokens.length) / (averages[field] ?? 1);
      for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + boost / norm);
    });
    for (const [term, weight] of weights) {
      const posting = byTerm.get(term) ?? { products: [], weights: [] };
      byTerm.set(term, posting);
      posting.products.push(product);
      posting.weights.push(weight);
    }
  }
  const terms = [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const impactOf = (term: string, weight: number): number => {
    const frequency = byTerm.get(term)?.products.length ?? 0;
    const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    return (idf * weight * (K1 + 1)) / (weight + K1);
  };
  let highest = 0;
  for (const term of terms) {
    for (const weight of byTerm.get(term)?.weights ?? []) highest = Math.max(highest, impactOf(term, weight));
  }
  const postingBytes = new ByteWriter();
  const impactBytes = new ByteWriter();
  const lengths: number[] = [];
  for (const term of terms) {
    const posting = byTerm.get(term) ?? { products: [], weights: [] };
    const start = postingBytes.length;
    let previous = 0;
    posting.products.forEach((product, index) => {
      postingBytes.varint(product - previous);
      previous = product;
      const impact = impactOf(term, posting.weights[index] ?? 0);
      impactBytes.byte(Math.max(1, Math.min(255, Math.round((impact / (highest || 1)) * 255))));
    });
    lengths.push(postingBytes.length - start);
  }
  return {
    format: 3,
    ids,
    ...buildColumnsFile(rows),
    terms,
    counts: terms.map((term) => byTerm.get(term)?.products.length ?? 0),
    lengths,
    postings: postingBytes.base64(),
    impacts: impactBytes.base64(),
  };
}
