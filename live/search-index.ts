/**
 * The catalog's search at the edge, over the index the generator wrote
 * (search-index-file.ts, cut into partitions by search-partitions-file.ts) and read a
 * partition at a time (search-partitions.ts): every word must match, spelled as given; failing that, every word
 * as a prefix (3 letters or more) or with one typo (5 letters or more); failing that, the
 * best partial matches, which are still worth an answer ("ginger shot under 5 dollars" has
 * words no product carries). Scores are sums of the precomputed impacts over the candidates
 * only; filters read typed columns. Results come in one deterministic order (score, then
 * catalog order), so an offset is a stable page boundary for the life of a bundle; a query
 * without words is its filters alone (a price range is a binary search). Postings
 * are decoded from bytes on first use and kept as typed arrays: no object per product.
 */
import { ProductBitmap } from './product-bitmap.js';
import { partitionedColumns, type SearchQuery } from './search-columns.js';
import type { PartitionStore } from './search-partitions.js';
import { type Expansion, partitionedPostings } from './search-postings.js';
import type { SearchAnswer } from './search-span-answer.js';
import type { TermRuns } from './search-term-encoding.js';
import { tokenise } from './search-tokens.js';

export type { SearchQuery } from './search-columns.js';
export { buildSearchIndex, type SearchIndexFile } from './search-index-file.js';
export type { SearchAnswer } from './search-span-answer.js';

export interface LoadedSearchIndex {
  /** How many products the catalog has. */
  readonly products: number;
  /** The product ids at these positions of a search answer (positions past the catalog are left out). */
  productIds(positions: ArrayLike<number>): Promise<string[]>;
  /** Positions of the matches, best first, in a stable order (read a page with `subarray`). */
  search(query: SearchQuery): Promise<SearchAnswer>;
}

/** More words than this in one query are dropped: each costs a pass over its postings. */
const MAX_QUERY_WORDS = 32;
/** Above this ratio of postings to candidates, a binary search per candidate beats a pass over the postings. */
const SEARCH_STEPS = 20;
/** Answers kept for their next pages: at most this many, and at most this many bytes (an answer of 1,000,000 products is 4 MB: not kept). */
const RECENT_QUERIES = 16;
const RECENT_BYTES = 4 * 1024 * 1024;

export function openSearchIndex(store: PartitionStore): LoadedSearchIndex {
  const count = store.root.products;
  const columns = partitionedColumns(store);
  const postings = partitionedPostings(store);
  // Per product, side by side: which pass of the current query reached it (its stamp, at
  // 2 × product) and its score so far (at 2 × product + 1). Side by side, a posting costs
  // one cache miss, not two: the passes over a common prefix's postings are memory-bound.
  // Stamps grow across queries, so nothing is cleared between them.
  const slots = new Uint32Array(2 * count);
  let epoch = 0;
  // Left empty between queries: `matchAny` clears the bits as it reads them back.
  const union = new ProductBitmap(count);
  const nextEpoch = (): number => {
    if (epoch > 0xffffffff - 2 * (MAX_QUERY_WORDS + 2)) {
      for (let product = 0; product < count; product += 1) slots[2 * product] = 0;
      epoch = 0;
    }
    epoch += MAX_QUERY_WORDS + 2;
    return epoch;
  };

  /** Products any spelling of any word reaches, ascending; each scored by the spellings it has. */
  const matchAny = (words: readonly Expansion[][]): Uint32Array => {
    const base = nextEpoch();
    const spellings = words.flat();
    const found = new Uint32Array(spellings.reduce((sum, { size }) => sum + size, 0));
    let size = 0;
    for (const { lists, weight } of spellings) {
      const { products, impacts } = lists();
      size = scorePostings(products, impacts, weight, base, slots, found, size);
    }
    // One postings list is ascending already; several interleave: read back from the bits
    // in catalog order (a sort of 200,000 products would cost ten times as much).
    if (spellings.length <= 1) return found.subarray(0, size);
    union.addAll(found, size);
    return union.list(size, true);
  };

  /**
   * Products every word reaches (by one of its spellings), ascending, scored. The rarest
   * word gives the candidates; each further word only confirms them, by binary search when
   * the candidates are few beside its postings (a word most products carry then costs a
   * lookup per candidate, not a pass over the catalog).
   */
  const matchAll = (words: readonly Expansion[][]): Uint32Array => {
    const sizeOf = (expansions: readonly Expansion[]): number =>
      expansions.reduce((sum, { size }) => sum + size, 0);
    const [first = [], ...rest] = [...words].sort((a, b) => sizeOf(a) - sizeOf(b));
    let candidates = matchAny([first]);
    let mark = epoch;
    for (const expansions of rest) {
      if (candidates.length === 0) break;
      for (const { size, lists, runs, weight } of expansions) {
        if (candidates.length * SEARCH_STEPS >= size) {
          const { products, impacts } = lists();
          confirmByPass(products, impacts, weight, mark, slots);
        } else if (runs) {
          // A word most products carry, stored as runs: its lists are never made here.
          confirmByRuns(candidates, runs, weight, mark, slots);
        } else {
          const { products, impacts } = lists();
          confirmBySearch(candidates, products, impacts, weight, mark, slots);
        }
      }
      mark += 1;
      candidates = stampedWith(candidates, slots, mark);
    }
    return candidates;
  };

  // The scores live in `slots` from a match until `byScore` reads them, across the reads of
  // the filter's partitions: another search must not run in between.
  const runSearch = async (query: SearchQuery): Promise<SearchAnswer> => {
    const words = [...new Set(tokenise(query.text ?? ''))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return columns.matching(query);
    const exact = await Promise.all(words.map((word) => postings.exact(word)));
    const kept = (found: Uint32Array): Promise<Uint32Array> => columns.keep(query, found);
    let found = exact.every((expansions) => expansions.length > 0)
      ? await kept(matchAll(exact))
      : new Uint32Array();
    if (found.length === 0) {
      const loose = await Promise.all(words.map((word) => postings.loose(word)));
      if (loose.every((expansions) => expansions.length > 0)) found = await kept(matchAll(loose));
      if (found.length === 0) found = await kept(matchAny(loose));
    }
    return byScore(found, slots);
  };

  // An agent paging through one query asks it again per page: the matches are kept, so
  // page n costs a slice rather than a search over the whole catalog.
  const recent = new Map<string, Uint32Array>();
  let recentBytes = 0;
  const remember = (key: string, answer: SearchAnswer): void => {
    // An answer counted rather than written out (search-span-answer.ts) is not kept: it
    // holds column blocks the cache may have dropped, and counting again is one pass.
    if (!(answer instanceof Uint32Array) || answer.byteLength > RECENT_BYTES) return;
    // An answer cut from a larger array would keep all of it alive: keep a copy of its own.
    const found = answer.byteLength < answer.buffer.byteLength ? answer.slice() : answer;
    while (recent.size >= RECENT_QUERIES || recentBytes + found.byteLength > RECENT_BYTES) {
      const oldest = recent.keys().next().value ?? '';
      recentBytes -= recent.get(oldest)?.byteLength ?? 0;
      recent.delete(oldest);
    }
    recent.set(key, found);
    recentBytes += found.byteLength;
  };
  // One search at a time per isolate: each waits for the one before it.
  let queue: Promise<unknown> = Promise.resolve();
  const idsBlock = store.root.ids_block;
  return {
    products: count,
    async productIds(positions) {
      const wanted = Array.from(positions).filter((position) => position >= 0 && position < count);
      const blocks = await Promise.all(wanted.map((position) => store.ids(Math.floor(position / idsBlock))));
      return wanted.flatMap((position, at) => blocks[at]?.at(position % idsBlock) ?? []);
    },
    search(query) {
      const key = JSON.stringify([
        query.text?.trim() ?? '',
        query.categories ?? [],
        query.price ?? {},
        query.available,
      ]);
      const cached = recent.get(key);
      if (cached) return Promise.resolve(cached);
      const answer = queue.then(async () => {
        const again = recent.get(key);
        if (again) return again;
        const found = await runSearch(query);
        remember(key, found);
        return found;
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}

/**
 * Adds one spelling's postings to the scores of the current pass (stamp `base`), writing
 * each product it reaches first to `found` from `size`; returns the new size. A function
 * of its own so V8 optimises it whole: as a loop inside `matchAny` it was compiled on the
 * fly mid-call and dropped again on each of the first fifty calls.
 */
function scorePostings(
  products: Uint32Array,
  impacts: Uint8Array,
  weight: number,
  base: number,
  slots: Uint32Array,
  found: Uint32Array,
  size: number,
): number {
  let at = size;
  for (let index = 0; index < products.length; index += 1) {
    const slot = 2 * (products[index] as number);
    const impact = (impacts[index] as number) * weight;
    if ((slots[slot] as number) < base) {
      slots[slot] = base;
      slots[slot + 1] = impact;
      found[at] = slot >>> 1;
      at += 1;
    } else slots[slot + 1] = (slots[slot + 1] as number) + impact;
  }
  return at;
}

/**
 * Confirms the candidates (ascending) that one spelling's postings hold, adding its impact:
 * a candidate still at stamp `mark` moves to `mark + 1`. Each search starts where the last
 * ended, the candidates being ascending.
 */
function confirmBySearch(
  candidates: Uint32Array,
  products: Uint32Array,
  impacts: Uint8Array,
  weight: number,
  mark: number,
  slots: Uint32Array,
): void {
  let from = 0;
  for (let at = 0; at < candidates.length; at += 1) {
    const product = candidates[at] as number;
    let high = products.length;
    while (from < high) {
      const middle = (from + high) >>> 1;
      if ((products[middle] as number) < product) from = middle + 1;
      else high = middle;
    }
    const slot = 2 * product;
    if (products[from] === product && slots[slot] === mark) {
      slots[slot] = mark + 1;
      slots[slot + 1] = (slots[slot + 1] as number) + (impacts[from] as number) * weight;
    }
  }
}

/**
 * As `confirmBySearch`, against a term's runs: a candidate inside run r has impact
 * `impacts[before[r] + (candidate - start of r)]`, or the one impact byte when every
 * product's is the same. Each search starts at the run the last candidate fell in.
 */
function confirmByRuns(
  candidates: Uint32Array,
  { bounds, before, impacts }: TermRuns & { impacts: Uint8Array },
  weight: number,
  mark: number,
  slots: Uint32Array,
): void {
  const runs = before.length;
  const oneImpact = impacts.length === 1;
  let from = 0;
  for (let at = 0; at < candidates.length; at += 1) {
    const product = candidates[at] as number;
    // The first run ending after the candidate.
    let high = runs;
    while (from < high) {
      const middle = (from + high) >>> 1;
      if ((bounds[2 * middle + 1] as number) <= product) from = middle + 1;
      else high = middle;
    }
    if (from >= runs) return;
    const start = bounds[2 * from] as number;
    const slot = 2 * product;
    if (product >= start && slots[slot] === mark) {
      const impact = oneImpact ? impacts[0] : impacts[(before[from] as number) + product - start];
      slots[slot] = mark + 1;
      slots[slot + 1] = (slots[slot + 1] as number) + (impact as number) * weight;
    }
  }
}

/** As `confirmBySearch`, by a pass over the postings (when they are few beside the candidates). */
function confirmByPass(
  products: Uint32Array,
  impacts: Uint8Array,
  weight: number,
  mark: number,
  slots: Uint32Array,
): void {
  for (let index = 0; index < products.length; index += 1) {
    const slot = 2 * (products[index] as number);
    if (slots[slot] === mark) {
      slots[slot] = mark + 1;
      slots[slot + 1] = (slots[slot + 1] as number) + (impacts[index] as number) * weight;
    }
  }
}

/** The candidates at stamp `mark`, in their order. */
function stampedWith(candidates: Uint32Array, slots: Uint32Array, mark: number): Uint32Array {
  const kept = new Uint32Array(candidates.length);
  let size = 0;
  for (let at = 0; at < candidates.length; at += 1) {
    const product = candidates[at] as number;
    kept[size] = product;
    size += Number(slots[2 * product] === mark);
  }
  return kept.subarray(0, size);
}

/**
 * Candidates (ascending) ordered by score, highest first, ties in catalog order: a counting
 * sort over the small integer scores, linear in the candidates, stable by construction. A
 * product's score is at 2 × product + 1 of `slots`, read once into an array beside the
 * candidates (a read of `slots` is a cache miss at 1,000,000 products; the passes of the
 * sort then read in order). Each pass is a function of its own, like `scorePostings`: V8
 * dropped its code for the passes of one function on each of the first fifty calls.
 */
function byScore(candidates: Uint32Array, slots: Uint32Array): Uint32Array {
  const scores = new Uint32Array(candidates.length);
  const highest = gatherScores(candidates, slots, scores);
  const starts = bucketStarts(scores, highest);
  const ordered = new Uint32Array(candidates.length);
  for (let index = 0; index < candidates.length; index += 1) {
    const bucket = highest - (scores[index] as number);
    ordered[starts[bucket] as number] = candidates[index] as number;
    starts[bucket] = (starts[bucket] as number) + 1;
  }
  return ordered;
}

/** Copies each candidate's score into `scores`; returns the highest. */
function gatherScores(candidates: Uint32Array, slots: Uint32Array, scores: Uint32Array): number {
  let highest = 0;
  for (let index = 0; index < candidates.length; index += 1) {
    const score = slots[2 * (candidates[index] as number) + 1] as number;
    scores[index] = score;
    if (score > highest) highest = score;
  }
  return highest;
}

/** Where each score's run starts in the order, highest score first. */
function bucketStarts(scores: Uint32Array, highest: number): Uint32Array {
  const starts = new Uint32Array(highest + 2);
  for (let index = 0; index < scores.length; index += 1) {
    const bucket = highest - (scores[index] as number) + 1;
    starts[bucket] = (starts[bucket] as number) + 1;
  }
  runningSums(starts);
  return starts;
}

function runningSums(counts: Uint32Array): void {
  for (let at = 1; at < counts.length; at += 1) {
    counts[at] = (counts[at] as number) + (counts[at - 1] as number);
  }
}
