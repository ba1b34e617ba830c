/**
 * How one term's postings are stored in a term partition (format 7,
 * search-partition-format.ts): its product numbers as LEB128 gaps, or as runs of
 * consecutive products when that is smaller, and its impact bytes one per product, or one
 * byte for all when they are all the same. A word most products carry ("juice" in a juice
 * shop) was a megabyte of gaps of 1 and a megabyte of impacts of 1 at 1,000,000 products,
 * read again on every question that named it (BENCHMARKS.md): as runs and one impact it
 * is a few bytes. Pure: the writer encodes, the handler decodes.
 */
import { Leb128Reader } from './leb128-reader.js';
import { putVarint, varintLength } from './leb128-writer.js';

/** A term's shape bits: its postings are runs (not gaps). */
export const POSTINGS_AS_RUNS = 1;
/** A term's shape bits: one impact byte stands for every product's. */
export const ONE_IMPACT = 2;
const KNOWN_SHAPES = POSTINGS_AS_RUNS | ONE_IMPACT;

/** One term as its partition stores it. */
export interface EncodedTerm {
  shape: number;
  postings: Uint8Array;
  impacts: Uint8Array;
}

/**
 * The smaller encoding of a term's postings: `gaps` (its products ascending as LEB128
 * gaps, the first from 0) and `impacts` (one byte per product), `count` products. Runs
 * are written as, per run, the distance from where the last run ended (0 before the
 * first) to where this one starts, then its length less one, both LEB128.
 */
export function encodeTerm(gaps: Uint8Array, impacts: Uint8Array, count: number): EncodedTerm {
  let shape = 0;
  let postings = gaps;
  const runsLength = runsByteLength(gaps, count);
  if (runsLength < gaps.length) {
    shape |= POSTINGS_AS_RUNS;
    postings = runsOf(gaps, count, runsLength);
  }
  const oneImpact = count > 1 && impacts.every((impact) => impact === impacts[0]);
  if (oneImpact) shape |= ONE_IMPACT;
  return { shape, postings, impacts: oneImpact ? impacts.subarray(0, 1) : impacts };
}

/** How many impact bytes a term of this shape and count stores. */
export function storedImpacts(shape: number, count: number): number {
  return shape & ONE_IMPACT && count > 0 ? 1 : count;
}

/** A `TypeError` for a shape this reader does not know (a file of a later format, or corrupt). */
export function expectShape(shape: number): void {
  if ((shape & ~KNOWN_SHAPES) !== 0) throw new TypeError(`unknown term shape ${shape}`);
}

/**
 * Calls `each(start, length)` for each run of consecutive products the gaps hold, in
 * order. The gaps have been checked already (the writer's own arrays).
 */
function forEachRun(gaps: Uint8Array, count: number, each: (start: number, length: number) => void): void {
  const reader = new Leb128Reader(gaps);
  let start = -1;
  let length = 0;
  let product = 0;
  for (let at = 0; at < count; at += 1) {
    const gap = reader.next();
    product += gap;
    if (start >= 0 && gap === 1) {
      length += 1;
      continue;
    }
    if (start >= 0) each(start, length);
    start = product;
    length = 1;
  }
  if (start >= 0) each(start, length);
}

function runsByteLength(gaps: Uint8Array, count: number): number {
  let bytes = 0;
  let end = 0;
  forEachRun(gaps, count, (start, length) => {
    bytes += varintLength(start - end) + varintLength(length - 1);
    end = start + length;
  });
  return bytes;
}

function runsOf(gaps: Uint8Array, count: number, byteLength: number): Uint8Array {
  const runs = new Uint8Array(byteLength);
  let at = 0;
  let end = 0;
  forEachRun(gaps, count, (start, length) => {
    at = putVarint(runs, at, start - end);
    at = putVarint(runs, at, length - 1);
    end = start + length;
  });
  return runs;
}

/**
 * A term's runs as the search reads them: run r covers the products
 * `bounds[2r]` to `bounds[2r + 1]` (exclusive), and `before[r]` products of the term come
 * before it (where its impacts start when each product has its own).
 */
export interface TermRuns {
  bounds: Uint32Array;
  before: Uint32Array;
}

/**
 * The runs `bytes` hold: exactly `size` products, each below `catalog`, and the bytes
 * used up; a `TypeError` naming `what` otherwise.
 */
export function readRunBounds(
  bytes: Uint8Array,
  size: number,
  catalog: number,
  what: () => string,
): TermRuns {
  // Each run takes two bytes at least, so there are at most half as many as bytes.
  const bounds = new Uint32Array(bytes.length + 1);
  const before = new Uint32Array(Math.ceil(bytes.length / 2));
  const reader = new Leb128Reader(bytes);
  let filled = 0;
  let end = 0;
  let runs = 0;
  while (filled < size) {
    const start = end + reader.next();
    const length = reader.next() + 1;
    if (filled + length > size) throw new TypeError(`the runs of ${what()} hold more than ${size} products`);
    if (start + length > catalog)
      throw new TypeError(`${what()} names product ${start + length - 1} of ${catalog}`);
    bounds[2 * runs] = start;
    bounds[2 * runs + 1] = start + length;
    before[runs] = filled;
    runs += 1;
    filled += length;
    end = start + length;
  }
  if (reader.at !== bytes.length) throw new TypeError(`the runs of ${what()} are not ${bytes.length} bytes`);
  return { bounds: bounds.slice(0, 2 * runs), before: before.slice(0, runs) };
}

/** The products of a term's runs, ascending, `size` of them. */
export function productsOfRuns({ bounds }: TermRuns, size: number): Uint32Array {
  const products = new Uint32Array(size);
  let filled = 0;
  for (let run = 0; run < bounds.length; run += 2) {
    const start = bounds[run] as number;
    const length = (bounds[run + 1] as number) - start;
    fillRun(products, filled, start, length);
    filled += length;
  }
  return products;
}

/** The products runs hold, ascending, checked as `readRunBounds` checks them. */
export function readRuns(bytes: Uint8Array, size: number, catalog: number, what: () => string): Uint32Array {
  return productsOfRuns(readRunBounds(bytes, size, catalog, what), size);
}

/** A function of its own, so V8 compiles the one loop that runs a million times. */
function fillRun(products: Uint32Array, from: number, start: number, length: number): void {
  for (let at = 0; at < length; at += 1) products[from + at] = start + at;
}

/** `size` impact bytes, each the term's one impact. */
export function repeatedImpact(impact: Uint8Array, size: number): Uint8Array {
  return new Uint8Array(size).fill(impact[0] ?? 0);
}
