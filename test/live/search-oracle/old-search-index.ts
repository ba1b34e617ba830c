/**
 * The oracle: the live search as it was before the price filter became a binary search
 * (main at 757a93c, live/search-index.ts), kept only so search-equivalence.test.ts can
 * compare the shipped search with it item for item. Not shipped; only its format check
 * differs (the current index file carries the old fields unchanged).
 */
import type { SearchQuery } from '../../../live/search-columns.js';
import type { SearchIndexFile } from '../../../live/search-index-file.js';
import { tokenise } from '../../../live/search-tokens.js';
import { loadColumns } from './old-search-columns.js';
import { type Expansion, loadPostings, lowerBound } from './old-search-postings.js';

export interface LoadedSearchIndex {
  /** The product id at a position of a search answer. */
  productId(position: number): string | undefined;
  /** Positions of the matches, best first, in a stable order. */
  search(query: SearchQuery): Uint32Array;
}

/** More words than this in one query are dropped: each costs a pass over its postings. */
const MAX_QUERY_WORDS = 32;
/** Above this ratio of postings to candidates, a binary search per candidate beats a pass over the postings. */
const SEARCH_STEPS = 20;
/** At 100,000 products a kept answer is at most 400 KB; 16 of them stay well inside a Worker's memory. */
const RECENT_QUERIES = 16;

export function loadSearchIndex(file: SearchIndexFile): LoadedSearchIndex {
  const count = file.ids.length;
  const columns = loadColumns(file);
  const postings = loadPostings(file);
  // Per product: which pass of the current query reached it (`stamp`) and its score so far.
  // Stamps grow across queries, so nothing is cleared between them.
  const stamp = new Uint32Array(count);
  const score = new Uint32Array(count);
  let epoch = 0;
  const nextEpoch = (): number => {
    if (epoch > 0xffffffff - 2 * (MAX_QUERY_WORDS + 2)) {
      stamp.fill(0);
      epoch = 0;
    }
    epoch += MAX_QUERY_WORDS + 2;
    return epoch;
  };

  /** Products any spelling of any word reaches, ascending; each scored by the spellings it has. */
  const matchAny = (words: readonly Expansion[][]): Uint32Array => {
    const base = nextEpoch();
    const lists = words.flatMap((expansions) => expansions.map(({ term }) => postings.products(term)));
    const found = new Uint32Array(lists.reduce((sum, list) => sum + list.length, 0));
    let size = 0;
    for (const expansions of words) {
      for (const { term, weight } of expansions) {
        const products = postings.products(term);
        const impacts = postings.impacts(term);
        for (let index = 0; index < products.length; index += 1) {
          const product = products[index] as number;
          const impact = (impacts[index] as number) * weight;
          if ((stamp[product] as number) < base) {
            stamp[product] = base;
            score[product] = impact;
            found[size] = product;
            size += 1;
          } else score[product] = (score[product] as number) + impact;
        }
      }
    }
    // One postings list is ascending already; several interleave.
    const union = found.subarray(0, size);
    return lists.length > 1 ? union.sort() : union;
  };

  /**
   * Products every word reaches (by one of its spellings), ascending, scored. The rarest
   * word gives the candidates; each further word only confirms them, by binary search when
   * the candidates are few beside its postings (a word most products carry then costs a
   * lookup per candidate, not a pass over the catalog).
   */
  const matchAll = (words: readonly Expansion[][]): Uint32Array => {
    const sizeOf = (expansions: readonly Expansion[]): number =>
      expansions.reduce((sum, { term }) => sum + (file.counts[term] ?? 0), 0);
    const [first = [], ...rest] = [...words].sort((a, b) => sizeOf(a) - sizeOf(b));
    let candidates = matchAny([first]);
    let mark = epoch;
    for (const expansions of rest) {
      if (candidates.length === 0) break;
      for (const { term, weight } of expansions) {
        const products = postings.products(term);
        const impacts = postings.impacts(term);
        const confirm = (product: number, index: number): void => {
          if (stamp[product] !== mark) return;
          stamp[product] = mark + 1;
          score[product] = (score[product] as number) + (impacts[index] as number) * weight;
        };
        if (candidates.length * SEARCH_STEPS < products.length) {
          for (const product of candidates) {
            const index = lowerBound(products, product);
            if (products[index] === product) confirm(product, index);
          }
        } else {
          for (let index = 0; index < products.length; index += 1) confirm(products[index] as number, index);
        }
      }
      mark += 1;
      const next = mark;
      candidates = candidates.filter((product) => stamp[product] === next);
    }
    return candidates;
  };

  const runSearch = (query: SearchQuery): Uint32Array => {
    const keep = columns.filter(query);
    const words = [...new Set(tokenise(query.text ?? ''))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) {
      const all: number[] = [];
      for (let product = 0; product < count; product += 1) if (!keep || keep(product)) all.push(product);
      return Uint32Array.from(all);
    }
    const exact = words.map((word) => postings.exact(word));
    const kept = (found: Uint32Array): Uint32Array => (keep ? found.filter(keep) : found);
    let found = exact.every((expansions) => expansions.length > 0)
      ? kept(matchAll(exact))
      : new Uint32Array();
    if (found.length === 0) {
      const loose = words.map((word) => postings.loose(word));
      if (loose.every((expansions) => expansions.length > 0)) found = kept(matchAll(loose));
      if (found.length === 0) found = kept(matchAny(loose));
    }
    return byScore(found, score);
  };

  // An agent paging through one query asks it again per page: the matches are kept, so
  // page n costs a slice rather than a search over the whole catalog.
  const recent = new Map<string, Uint32Array>();
  return {
    productId: (position) => file.ids[position],
    search(query) {
      const key = JSON.stringify([
        query.text?.trim() ?? '',
        query.categories ?? [],
        query.price ?? {},
        query.available,
      ]);
      const cached = recent.get(key);
      if (cached) return cached;
      const found = runSearch(query);
      if (recent.size >= RECENT_QUERIES) recent.delete(recent.keys().next().value ?? '');
      recent.set(key, found);
      return found;
    },
  };
}

/**
 * Candidates (ascending) ordered by score, highest first, ties in catalog order: a counting
 * sort over the small integer scores, linear in the candidates, stable by construction.
 */
function byScore(candidates: Uint32Array, score: Uint32Array): Uint32Array {
  let highest = 0;
  for (const product of candidates) highest = Math.max(highest, score[product] as number);
  const starts = new Uint32Array(highest + 2);
  for (const product of candidates) starts[highest - (score[product] as number) + 1] += 1;
  for (let bucket = 1; bucket < starts.length; bucket += 1) {
    starts[bucket] = (starts[bucket] as number) + (starts[bucket - 1] as number);
  }
  const ordered = new Uint32Array(candidates.length);
  for (const product of candidates) {
    const bucket = highest - (score[product] as number);
    ordered[starts[bucket] as number] = product;
    starts[bucket] = (starts[bucket] as number) + 1;
  }
  return ordered;
}
