/**
 * Decodes the term and price partition files' bytes (search-partition-format.ts) into what a
 * query reads: a term's postings as typed arrays when first asked for, a price range's
 * ends found by walking the price steps. Each check is made once, when the bytes are
 * decoded, so the passes over them need none; a failed check is a `TypeError` the
 * partition store reports as a broken index.
 */
import { Leb128Reader } from './leb128-reader.js';
import { PackedStrings } from './packed-strings.js';
import { SearchIndexError } from './search-index-error.js';
import { readPricePartition, readTermPartition } from './search-partition-format.js';
import {
  ONE_IMPACT,
  POSTINGS_AS_RUNS,
  productsOfRuns,
  readRunBounds,
  repeatedImpact,
  storedImpacts,
  type TermRuns,
} from './search-term-encoding.js';

/** A term's products ascending, with an impact byte for each. */
export interface TermLists {
  products: Uint32Array;
  impacts: Uint8Array;
}

/** A term's postings, as lists and, for a term stored as runs, as its runs. */
export interface TermPostings {
  /** How many products carry the term. */
  readonly size: number;
  /**
   * Its products and impacts as lists: kept for a term stored as gaps, made on each call
   * for one stored as runs (megabytes for a word every product carries).
   */
  lists(): TermLists;
  /**
   * A term stored as runs: its runs, and its impacts as stored (one byte when every
   * product's is the same, else one a product), so a few candidates are confirmed against
   * it without making its lists.
   */
  readonly runs?: TermRuns & { impacts: Uint8Array };
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
   * The entries [start, end) whose prices are within [min, max], found from the marks and
   * the price steps on each call without making an array (only the partitions at a range's
   * ends need it).
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
 * A term partition (its file's bytes, search-partition-format.ts): a query needs one or
 * two of its terms, so only their postings are decoded, each checked then: its bytes hold
 * exactly its count of products, every product in the catalog. The bytes counted are the
 * file's, and each term's as it is decoded (`grow`): counting every term as decoded up
 * front let the cache hold a third of the partitions it can. A partition of one term (a
 * word most products carry) is decoded at once. A term stored as runs keeps its runs
 * (bytes), not its lists (megabytes at 1,000,000 products for a word every product
 * carries: kept, they pushed the rest of the cache out; made on every question, they were
 * most of its CPU).
 */
export function decodeTerms(
  bytes: Uint8Array,
  count: number,
  grow: (bytes: number) => void,
): { value: TermPartition; bytes: number } {
  const { text, termLengths, counts, lengths, shapes, postings, impacts } = readTermPartition(bytes);
  const terms = PackedStrings.of(text, termLengths);
  const byteStarts = new Float64Array(terms.length + 1);
  const impactStarts = new Float64Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    byteStarts[term + 1] = (byteStarts[term] as number) + (lengths[term] as number);
    impactStarts[term + 1] =
      (impactStarts[term] as number) + storedImpacts(shapes[term] as number, counts[term] as number);
  }
  /** A decoded term and the bytes it holds beyond the file's. */
  const decode = (at: number): { postings: TermPostings; bytes: number } => {
    const size = counts[at] as number;
    const shape = shapes[at] as number;
    const what = (): string => `"${terms.at(at)}"`;
    const stored = postings.subarray(byteStarts[at], byteStarts[at + 1]);
    // A view of the file, counted with it.
    const storedImpactBytes = impacts.subarray(impactStarts[at], impactStarts[at + 1]);
    const impactsOf = (): Uint8Array =>
      shape & ONE_IMPACT ? repeatedImpact(storedImpactBytes, size) : storedImpactBytes;
    if (shape & POSTINGS_AS_RUNS) {
      const runs = { ...readRunBounds(stored, size, count, what), impacts: storedImpactBytes };
      return {
        postings: {
          size,
          runs,
          lists: () => ({ products: productsOfRuns(runs, size), impacts: impactsOf() }),
        },
        bytes: runs.bounds.byteLength + runs.before.byteLength,
      };
    }
    const lists = { products: readGaps(stored, size, count, what), impacts: impactsOf() };
    return {
      postings: { size, lists: () => lists },
      bytes: lists.products.byteLength + (shape & ONE_IMPACT ? lists.impacts.byteLength : 0),
    };
  };
  const decoded = new Map<number, TermPostings>();
  /** The term's postings, kept once decoded; `grow` hears of the bytes a first decode adds. */
  const postingsAt = (at: number, onGrow: (bytes: number) => void): TermPostings => {
    const kept = decoded.get(at);
    if (kept) return kept;
    try {
      const fresh = decode(at);
      decoded.set(at, fresh.postings);
      onGrow(fresh.bytes);
      return fresh.postings;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SearchIndexError(`the search index's postings cannot be read (${reason})`);
    }
  };
  const own = bytes.byteLength + terms.bytes + 16 * terms.length;
  if (terms.length === 1) {
    let first = 0;
    postingsAt(0, (bytes) => {
      first = bytes;
    });
    return { value: { terms, postings: (at) => postingsAt(at, grow) }, bytes: own + first };
  }
  return { value: { terms, postings: (at) => postingsAt(at, grow) }, bytes: own };
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

/**
 * Fills the marks (the price of every 64th entry and where its step starts), checking that
 * the steps hold one integer per entry and nothing more. The loops of the decode are
 * functions of their own: V8 dropped the code of one function holding them all again and
 * again, each time going back to the interpreter for the rest of 32,768 entries.
 */
function readMarks(
  first: number,
  entries: number,
  steps: Uint8Array,
  markPrices: Float64Array,
  markBytes: Uint32Array,
): void {
  const reader = new Leb128Reader(steps);
  let price = first;
  for (let entry = 0; entry < entries; entry += 1) {
    const mark = entry % PRICE_MARK_STRIDE === 0 ? entry / PRICE_MARK_STRIDE : -1;
    if (mark >= 0) markBytes[mark] = reader.at;
    price += reader.next();
    if (mark >= 0) markPrices[mark] = price;
  }
  if (reader.at !== steps.length) throw new TypeError(`price steps past the ${entries} entries`);
}

/** Every entry's product is in the catalog. */
function checkProducts(entries: Uint32Array, count: number): void {
  for (let at = 0; at < entries.length; at += 1) {
    const product = (entries[at] as number) >>> 1;
    if (product >= count) throw new TypeError(`product ${product} of ${count}`);
  }
}

/**
 * Every this many entries of a price partition, its price and where its step starts are
 * kept, so a range's ends are found by a binary search and a walk of at most this many
 * steps, not a walk from the partition's start (32,768 steps, twice a query, had been
 * 7% of the CPU at 1,000,000 products). 1.5 KB a partition.
 */
const PRICE_MARK_STRIDE = 64;

export function decodePrices(bytes: Uint8Array, count: number): { value: PricePartition; bytes: number } {
  const { first, entries, steps } = readPricePartition(bytes);
  if (!Number.isSafeInteger(first)) throw new TypeError(`the first price ${first} is not an integer`);
  // Checked once here, so the passes over the entries need no checks: the steps hold one
  // integer per entry and nothing more, and every product number is in the catalog.
  const marks = Math.ceil(entries.length / PRICE_MARK_STRIDE);
  const markPrices = new Float64Array(marks);
  const markBytes = new Uint32Array(marks);
  readMarks(first, entries.length, steps, markPrices, markBytes);
  checkProducts(entries, count);
  /** The first entry whose price is ≥ `value` (> `value` when `above`), or the length. */
  const seek = (value: number, above: boolean): number => {
    const before = (at: number): boolean => (above ? at <= value : at < value);
    let low = 0;
    let high = marks;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(markPrices[middle] as number)) low = middle + 1;
      else high = middle;
    }
    // Entry `low × stride` is the first marked one not before the value: walk from the mark before it.
    if (low === 0) return 0;
    const mark = low - 1;
    const walk = new Leb128Reader(steps, markBytes[mark] as number);
    walk.next();
    let current = markPrices[mark] as number;
    const stop = Math.min(entries.length, low * PRICE_MARK_STRIDE);
    for (let entry = mark * PRICE_MARK_STRIDE + 1; entry < stop; entry += 1) {
      current += walk.next();
      if (!before(current)) return entry;
    }
    return stop;
  };
  const within = (min: number, max: number): [number, number] => {
    const start = seek(min, false);
    return [start, Math.max(start, seek(max, true))];
  };
  return {
    value: { first, entries, within },
    bytes: bytes.byteLength + markPrices.byteLength + markBytes.byteLength,
  };
}
