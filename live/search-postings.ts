/**
 * The spellings a query word may match, with their postings, read from the index's term
 * partitions (search-partitions.ts): the word itself, the terms it is a prefix of, and
 * those one typo away. Only the partitions holding those terms are read: the root's
 * first terms say which, and the one-typo match reads the words of the three lengths a
 * word one edit away can have.
 */
import { reversed } from './search-partition-format.js';
import { type PartitionStore, SearchIndexError, type TermPostings } from './search-partitions.js';

/** A prefix or typo expands to at most this many vocabulary terms, the first in sorted order. */
const MAX_EXPANSIONS = 64;
/** An exact word counts twice what a prefix or typo match of it counts. */
const EXACT = 2;
const LOOSE = 1;

/** One spelling of a query word: a vocabulary term, the weight its impacts get, its postings. */
export interface Expansion extends TermPostings {
  term: string;
  weight: number;
}

export interface Postings {
  /** The term itself, or nothing when the vocabulary lacks it. */
  exact(word: string): Promise<Expansion[]>;
  /** The term, the terms it is a prefix of (3 letters or more), and those one typo away (5 or more). */
  loose(word: string): Promise<Expansion[]>;
}

export function partitionedPostings(store: PartitionStore): Postings {
  const firsts = store.root.terms;
  /** The partition that would hold `word`: the last whose first term is not after it. */
  const partitionOf = (word: string): number => upperBound(firsts, word) - 1;
  const lookup = async (word: string, weight: number): Promise<Expansion | undefined> => {
    const partition = partitionOf(word);
    if (partition < 0) return undefined;
    const { terms, postings } = await store.terms(partition);
    const at = terms.lowerBound(word);
    if (terms.at(at) !== word) return undefined;
    return { term: word, weight, ...postings(at) };
  };
  const exact = async (word: string): Promise<Expansion[]> => {
    const found = await lookup(word, EXACT);
    return found ? [found] : [];
  };
  /** The terms `word` is a prefix of, after `expansions`, in sorted order, across partitions. */
  const prefixed = async (word: string, expansions: Expansion[]): Promise<void> => {
    let partition = Math.max(0, partitionOf(word));
    let first = true;
    for (; partition < firsts.length && expansions.length < MAX_EXPANSIONS; partition += 1) {
      // A later partition holds terms with the prefix only if its first term has it: the
      // root says so, and a partition that cannot hold one is never read.
      if (!first && !(firsts[partition] as string).startsWith(word)) return;
      const { terms, postings } = await store.terms(partition);
      for (let at = first ? terms.lowerBound(word) : 0; at < terms.length; at += 1) {
        if (expansions.length >= MAX_EXPANSIONS) return;
        const term = terms.at(at) as string;
        if (!term.startsWith(word)) return;
        if (term !== word) {
          expansions.push({ term, weight: LOOSE, ...postings(at) });
        }
      }
      first = false;
    }
  };
  /**
   * The terms of the vocabulary (or the reversed one) that start with `prefix` and are
   * `shortest` to `longest` code units long, ascending. A half-word's run can be thousands
   * of terms ("ka…" is a sixteenth of the vocabulary): its end is a binary search, and
   * only the terms of a length one edit can reach are sliced out of the packed list.
   */
  const startingWith = async (
    prefix: string,
    backwards: boolean,
    shortest: number,
    longest: number,
  ): Promise<string[]> => {
    const heads = backwards ? store.root.rvocab : store.root.vocab;
    const found: string[] = [];
    const start = Math.max(0, upperBound(heads, prefix) - 1);
    for (let partition = start; partition < heads.length; partition += 1) {
      // As for the terms: a later file holds such terms only if its first term is one.
      if (partition > start && !(heads[partition] as string).startsWith(prefix)) return found;
      const list = await store.vocab(partition, backwards);
      const end = list.runEnd(prefix);
      for (let at = list.lowerBound(prefix); at < end; at += 1) {
        const length = list.lengthAt(at);
        if (length >= shortest && length <= longest) found.push(list.at(at) as string);
      }
      if (end < list.length) return found;
    }
    return found;
  };
  /** The terms one typo away (not prefixed by `word`), after `expansions`, in sorted order. */
  const typos = async (word: string, expansions: Expansion[]): Promise<void> => {
    if (expansions.length >= MAX_EXPANSIONS) return;
    const half = Math.floor(word.length / 2);
    // One edit changes a length by one at most.
    const [heads, tails] = await Promise.all([
      startingWith(word.slice(0, half), false, word.length - 1, word.length + 1),
      startingWith(reversed(word.slice(half)), true, word.length - 1, word.length + 1),
    ]);
    const near = [...new Set([...heads, ...tails.map(reversed)])]
      .filter((term) => !term.startsWith(word) && oneEditApart(word, term))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, MAX_EXPANSIONS - expansions.length);
    const found = await Promise.all(near.map((term) => lookup(term, LOOSE)));
    found.forEach((expansion, at) => {
      if (!expansion)
        throw new SearchIndexError(`the search index's vocabulary has "${near[at]}", its terms do not`);
      expansions.push(expansion);
    });
  };
  return {
    exact,
    async loose(word) {
      const expansions = await exact(word);
      if (word.length >= 3) await prefixed(word, expansions);
      if (word.length >= 5) await typos(word, expansions);
      return expansions;
    },
  };
}

/** True when one insertion, deletion or substitution turns `a` into `b` (not when equal); no string is made. */
export function oneEditApart(a: string, b: string): boolean {
  const shorter = a.length <= b.length ? a : b;
  const longer = a.length <= b.length ? b : a;
  if (longer.length - shorter.length > 1 || a === b) return false;
  let i = 0;
  while (i < shorter.length && shorter.charCodeAt(i) === longer.charCodeAt(i)) i += 1;
  // Past the first difference the rest must agree: a substitution skips one unit of each,
  // an insertion one unit of the longer.
  const shift = longer.length > shorter.length ? 1 : 0;
  for (let j = shift === 1 ? i : i + 1; j < shorter.length; j += 1) {
    if (shorter.charCodeAt(j) !== longer.charCodeAt(j + shift)) return false;
  }
  return true;
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

/** The first index of `list` (ascending) holding a value > `value`. */
export function upperBound<T extends number | string>(list: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as T) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
