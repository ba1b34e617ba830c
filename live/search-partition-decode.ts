/**
 * Decodes the term and price partition files (search-partition-format.ts) into what a
 * query reads: a term's postings as typed arrays when first asked for, a price range's
 * ends found by walking the price steps. Each check is made once, when the bytes are
 * decoded, so the passes over them need none; a failed check is a `TypeError` the
 * partition store reports as a broken index.
 */
import { base64ToBytes } from './base64-bytes.js';
import { Leb128Reader } from './leb128-reader.js';
import { PackedStrings } from './packed-strings.js';
import { readUint32LittleEndian } from './search-columns-file.js';
import { SearchIndexError } from './search-index-error.js';
import type { PricePartitionFile, TermPartitionFile } from './search-partition-format.js';

/** A term's products (ascending) and its impact byte for each. */
export interface TermPostings {
  products: Uint32Array;
  impacts: Uint8Array;
}

/** A run of the vocabulary; a term's postings are decoded when first asked for, and kept. */
export interface TermPartition {
  terms: PackedStrings;
  postings(at: number): TermPostings;
}

/** A run of the variants in price order: `entries` is product × 2 + available. */
export interface PricePartition {
  first: number;
  entries: Uint32Array;
  /**
   * The entries [start, end) whose prices are within [min, max], read from the price steps
   * on each call without making an array (only the partitions at a range's ends need it).
   */
  within(min: number, max: number): [start: number, end: number];
}

/** The product ids of a block, by their place in it. */
export interface IdsBlock {
  at(index: number): string | undefined;
}

export function expectLength(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new TypeError(`${actual} ${what} where ${expected} belong`);
}

/**
 * A term partition, its postings left as base64 text: a query needs one or two of its
 * terms, so only their slices are decoded (base64 decodes in groups of 4 characters, 3
 * bytes), each checked then: its bytes hold exactly its count of gaps, every product in
 * the catalog. The bytes counted are the text (one byte a character in V8), and each
 * term's arrays as it is decoded (`grow`): counting every term as decoded up front let
 * the cache hold a third of the partitions it can. A partition of one term (a word most
 * products carry) is decoded at once.
 */
export function decodeTerms(
  file: TermPartitionFile,
  count: number,
  grow: (bytes: number) => void,
): { value: TermPartition; bytes: number } {
  const { counts, lengths, postings, impacts } = file;
  const terms = PackedStrings.read(file.terms);
  if (counts?.length !== terms.length || lengths?.length !== terms.length) {
    throw new TypeError('terms, counts and lengths differ in length');
  }
  const byteStarts = new Float64Array(terms.length + 1);
  const postingStarts = new Float64Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    byteStarts[term + 1] = (byteStarts[term] as number) + (lengths[term] as number);
    postingStarts[term + 1] = (postingStarts[term] as number) + (counts[term] as number);
  }
  expectLength(base64Length(postings), byteStarts[terms.length] as number, 'postings bytes');
  expectLength(base64Length(impacts), postingStarts[terms.length] as number, 'impacts');
  const decoded = new Map<number, TermPostings>();
  const decode = (at: number): TermPostings => {
    let kept = decoded.get(at);
    if (kept) return kept;
    try {
      const bytes = base64Slice(postings, byteStarts[at] as number, byteStarts[at + 1] as number);
      kept = {
        products: readGaps(bytes, counts[at] as number, count, () => `"${terms.at(at)}"`),
        impacts: base64Slice(impacts, postingStarts[at] as number, postingStarts[at + 1] as number),
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SearchIndexError(`the search index's postings cannot be read (${reason})`);
    }
    decoded.set(at, kept);
    return kept;
  };
  const sizeOf = ({ products, impacts }: TermPostings): number =>
    products.byteLength + impacts.buffer.byteLength;
  const own = postings.length + impacts.length + terms.bytes + 16 * terms.length;
  if (terms.length === 1) return { value: { terms, postings: decode }, bytes: own + sizeOf(decode(0)) };
  const postingsAt = (at: number): TermPostings => {
    const known = decoded.has(at);
    const kept = decode(at);
    if (!known) grow(sizeOf(kept));
    return kept;
  };
  return { value: { terms, postings: postingsAt }, bytes: own };
}

/**
 * `size` product numbers written as unsigned LEB128 gaps, ascending, each below `count`;
 * a `TypeError` naming `what` when the bytes hold more or fewer.
 */
function readGaps(bytes: Uint8Array, size: number, count: number, what: () => string): Uint32Array {
  const products = new Uint32Array(size);
  const reader = new Leb128Reader(bytes);
  let previous = 0;
  for (let index = 0; index < size; index += 1) {
    previous += reader.next();
    if (previous >= count) throw new TypeError(`${what()} names product ${previous} of ${count}`);
    products[index] = previous;
  }
  if (reader.at !== bytes.length)
    throw new TypeError(`the postings of ${what()} are not ${bytes.length} bytes`);
  return products;
}

/** How many bytes a base64 text holds. */
function base64Length(text: unknown): number {
  if (typeof text !== 'string' || text.length % 4 !== 0) return -1;
  return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/** Bytes [start, end) of a base64 text, decoding only the groups of 4 characters that hold them. */
function base64Slice(text: string, start: number, end: number): Uint8Array {
  if (end <= start) return new Uint8Array();
  const first = Math.floor(start / 3);
  const bytes = base64ToBytes(text.slice(first * 4, Math.ceil(end / 3) * 4));
  return bytes.subarray(start - first * 3, end - first * 3);
}

export function decodePrices(
  file: PricePartitionFile,
  count: number,
): { value: PricePartition; bytes: number } {
  const entries = readUint32LittleEndian(base64ToBytes(file.entries));
  const steps = base64ToBytes(file.steps);
  const { first } = file;
  if (typeof first !== 'number') throw new TypeError('no first price');
  // Checked once here, so the passes over the entries need no checks: one step ends per
  // entry (its last byte is below 0x80), and every product number is in the catalog.
  let ends = 0;
  for (let at = 0; at < steps.length; at += 1) if ((steps[at] as number) < 0x80) ends += 1;
  expectLength(ends, entries.length, 'price steps');
  for (let at = 0; at < entries.length; at += 1) {
    const product = (entries[at] as number) >>> 1;
    if (product >= count) throw new TypeError(`product ${product} of ${count}`);
  }
  const within = (min: number, max: number): [number, number] => {
    // The prices ascend: walk the steps to the first price ≥ min, then on past the last ≤ max.
    let start = -1;
    let price = first;
    const reader = new Leb128Reader(steps);
    for (let entry = 0; entry < entries.length; entry += 1) {
      price += reader.next();
      if (price > max) return [start < 0 ? entry : start, entry];
      if (start < 0 && price >= min) start = entry;
    }
    return [start < 0 ? entries.length : start, entries.length];
  };
  return { value: { first, entries, within }, bytes: entries.byteLength + steps.byteLength };
}
