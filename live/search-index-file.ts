/**
 * The live search index as the generator writes it (`_live/index/<n>.part`, JSON text):
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
import { bytesToBase64 } from './base64-bytes.js';
import { buildColumnsFile, type ColumnsFile } from './search-columns-file.js';
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

/** Field boosts: a word in the name says more about the product than one in its description. */
const FIELDS: readonly { boost: number; text: (record: ProductRecord) => string }[] = [
  { boost: 4, text: (record) => record.name },
  { boost: 2, text: (record) => record.brand ?? '' },
  { boost: 2, text: (record) => record.category ?? '' },
  { boost: 1, text: (record) => record.description ?? '' },
  {
    boost: 1,
    text: (record) =>
      [
        ...record.options.flatMap((option) => [option.name, ...option.values]),
        ...record.variants.map((variant) => variant.title),
      ].join(' '),
  },
  { boost: 1.5, text: (record) => record.tags.join(' ') },
];

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

interface Posting {
  products: number[];
  weights: number[];
}

/** The index of these records, in catalog order. */
export function buildSearchIndex(records: readonly ProductRecord[]): SearchIndexFile {
  const fieldTokens = records.map((record) => FIELDS.map((field) => tokenise(field.text(record))));
  const averages = FIELDS.map(
    (_, field) =>
      fieldTokens.reduce((sum, fields) => sum + (fields[field]?.length ?? 0), 0) /
        Math.max(1, records.length) || 1,
  );
  const byTerm = new Map<string, Posting>();
  fieldTokens.forEach((fields, product) => {
    const weights = new Map<string, number>();
    fields.forEach((tokens, field) => {
      const { boost } = FIELDS[field] ?? { boost: 1 };
      const norm = 1 - B + (B * tokens.length) / (averages[field] ?? 1);
      for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + boost / norm);
    });
    for (const [term, weight] of weights) {
      const posting = byTerm.get(term) ?? { products: [], weights: [] };
      byTerm.set(term, posting);
      posting.products.push(product);
      posting.weights.push(weight);
    }
  });
  const terms = [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const impactOf = (term: string, weight: number): number => {
    const frequency = byTerm.get(term)?.products.length ?? 0;
    const idf = Math.log(1 + (records.length - frequency + 0.5) / (frequency + 0.5));
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
    ids: records.map((record) => record.id),
    ...buildColumnsFile(
      records.map((record) => ({
        category: record.category ?? undefined,
        offers: toUcpProduct(record).variants.map((variant) => ({
          amount: variant.price.amount,
          available: variant.availability.available,
        })),
      })),
    ),
    terms,
    counts: terms.map((term) => byTerm.get(term)?.products.length ?? 0),
    lengths,
    postings: postingBytes.base64(),
    impacts: impactBytes.base64(),
  };
}

/** A growable byte buffer with base64 output that needs no Node API. */
class ByteWriter {
  private bytes = new Uint8Array(1024);
  length = 0;

  byte(value: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length] = value;
    this.length += 1;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  base64(): string {
    return bytesToBase64(this.bytes.subarray(0, this.length));
  }
}
