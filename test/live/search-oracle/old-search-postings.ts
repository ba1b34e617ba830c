/**
 * The oracle's postings: live/search-postings.ts as it was over the whole index (format 3),
 * kept for search-equivalence.test.ts only.
 *
 * The inverted index's postings at the edge: the vocabulary, each term's product numbers
 * (decoded from packed LEB128 gaps on first use and kept as a typed array) and impact
 * bytes, and the spellings a query word may match: itself, the terms it is a prefix of,
 * and those one typo away.
 */
import { base64ToBytes } from '../../../live/base64-bytes.js';
import type { SearchIndexFile } from '../../../live/search-index-file.js';

/** A prefix or typo expands to at most this many vocabulary terms, the first in sorted order. */
const MAX_EXPANSIONS = 64;
/** An exact word counts twice what a prefix or typo match of it counts. */
const EXACT = 2;
const LOOSE = 1;

/** One spelling of a query word: a vocabulary term and the weight its impacts get. */
export interface Expansion {
  term: number;
  weight: number;
}

export interface Postings {
  /** How many products carry the term. */
  size(term: number): number;
  products(term: number): Uint32Array;
  impacts(term: number): Uint8Array;
  /** The term itself, or nothing when the vocabulary lacks it. */
  exact(word: string): Expansion[];
  /** The term, the terms it is a prefix of (3 letters or more), and those one typo away (5 or more). */
  loose(word: string): Expansion[];
}

export function loadPostings(file: SearchIndexFile): Postings {
  // Only what the closures below need is kept: the file's text is left for collection.
  const { terms } = file;
  const counts = Uint32Array.from(file.counts);
  const bytes = base64ToBytes(file.postings);
  const impactBytes = base64ToBytes(file.impacts);
  const byteStarts = new Uint32Array(terms.length + 1);
  const impactStarts = new Uint32Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    byteStarts[term + 1] = (byteStarts[term] as number) + (file.lengths[term] ?? 0);
    impactStarts[term + 1] = (impactStarts[term] as number) + (counts[term] ?? 0);
  }
  const decoded = new Map<number, Uint32Array>();
  const products = (term: number): Uint32Array => {
    const kept = decoded.get(term);
    if (kept) return kept;
    const list = new Uint32Array(counts[term] ?? 0);
    let at = byteStarts[term] as number;
    let previous = 0;
    for (let index = 0; index < list.length; index += 1) {
      let value = 0;
      let shift = 1;
      let byte: number;
      do {
        byte = bytes[at] as number;
        at += 1;
        value += (byte & 0x7f) * shift;
        shift *= 0x80;
      } while (byte >= 0x80);
      previous += value;
      list[index] = previous;
    }
    decoded.set(term, list);
    return list;
  };
  const find = (word: string): number => lowerBound(terms, word);
  const exact = (word: string): Expansion[] => {
    const at = find(word);
    return terms[at] === word ? [{ term: at, weight: EXACT }] : [];
  };
  const loose = (word: string): Expansion[] => {
    const expansions = exact(word);
    if (word.length >= 3) {
      for (let at = find(word); at < terms.length && expansions.length < MAX_EXPANSIONS; at += 1) {
        const term = terms[at] as string;
        if (!term.startsWith(word)) break;
        if (term !== word) expansions.push({ term: at, weight: LOOSE });
      }
    }
    if (word.length >= 5) {
      for (let at = 0; at < terms.length && expansions.length < MAX_EXPANSIONS; at += 1) {
        const term = terms[at] as string;
        if (!term.startsWith(word) && oneEditApart(word, term)) expansions.push({ term: at, weight: LOOSE });
      }
    }
    return expansions;
  };
  return {
    size: (term) => counts[term] ?? 0,
    products,
    impacts: (term) => impactBytes.subarray(impactStarts[term], impactStarts[term + 1]),
    exact,
    loose,
  };
}

/** True when one insertion, deletion or substitution turns `a` into `b` (not when equal). */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The first index of `list` (ascending) holding a value ≥ `value`. */
export function lowerBound<T extends number | string>(list: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as T) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
