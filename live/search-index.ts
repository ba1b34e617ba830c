/**
 * The catalog's search at the edge, over the index the generator wrote
 * (search-index-file.ts): every word must match, spelled as given; failing that, every word
 * as a prefix (3 letters or more) or with one typo (5 letters or more); failing that, the
 * best partial matches, which are still worth an answer ("ginger shot under 5 dollars" has
 * words no product carries). Scores are sums of the precomputed impacts over the candidates
 * only; filters read typed columns. Results come in one deterministic order (score, then
 * catalog order), so an offset is a stable page boundary for the life of a bundle. Postings
 * are decoded from bytes on first use and kept as typed arrays: no object per product.
 */
import { base64ToBytes, type SearchIndexFile } from './search-index-file.js';
import { tokenise } from './search-tokens.js';

export { buildSearchIndex, type SearchIndexFile } from './search-index-file.js';

export interface SearchQuery {
  text?: string;
  /** Any of these categories (case-insensitive). */
  categories?: readonly string[];
  /** Minor units; a product matches when one of its variants is within. */
  price?: { min?: number; max?: number };
  /** true: only products with a variant that can be bought now (and, with `price`, is within it). */
  available?: boolean;
}

export interface LoadedSearchIndex {
  /** The product id at a position of a search answer. */
  productId(position: number): string | undefined;
  /** Positions of the matches, best first, in a stable order. */
  search(query: SearchQuery): Uint32Array;
}

/** More words than this in one query are dropped: each costs a pass over its postings. */
const MAX_QUERY_WORDS = 32;
/** A prefix expands to at most this many vocabulary terms, the first in sorted order. */
const MAX_EXPANSIONS = 64;
/** Above this ratio of postings to candidates, a binary search per candidate beats a pass over the postings. */
const SEARCH_STEPS = 20;
/** At 100,000 products a kept answer is at most 400 KB; 16 of them stay well inside a Worker's memory. */
const RECENT_QUERIES = 16;
/** An exact word counts twice what a prefix or typo match of it counts. */
const EXACT = 2;
const LOOSE = 1;

interface Expansion {
  term: number;
  weight: number;
}

export function loadSearchIndex(file: SearchIndexFile): LoadedSearchIndex {
  if (file.format !== 2) throw new TypeError(`search index format ${String(file.format)} is not 2`);
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

/** The first index of `list` (ascending) holding a value ≥ `value`. */
function lowerBound(list: Uint32Array, value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
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

interface Postings {
  products(term: number): Uint32Array;
  impacts(term: number): Uint8Array;
  /** The term itself, or nothing when the vocabulary lacks it. */
  exact(word: string): Expansion[];
  /** The term, the terms it is a prefix of (3 letters or more), and those one typo away (5 or more). */
  loose(word: string): Expansion[];
}

function loadPostings(file: SearchIndexFile): Postings {
  const { terms } = file;
  const bytes = base64ToBytes(file.postings);
  const impactBytes = base64ToBytes(file.impacts);
  const byteStarts = new Uint32Array(terms.length + 1);
  const impactStarts = new Uint32Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    byteStarts[term + 1] = (byteStarts[term] as number) + (file.lengths[term] ?? 0);
    impactStarts[term + 1] = (impactStarts[term] as number) + (file.counts[term] ?? 0);
  }
  const decoded = new Map<number, Uint32Array>();
  const products = (term: number): Uint32Array => {
    const kept = decoded.get(term);
    if (kept) return kept;
    const list = new Uint32Array(file.counts[term] ?? 0);
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
  const find = (word: string): number => {
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((terms[middle] as string) < word) low = middle + 1;
      else high = middle;
    }
    return low;
  };
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

interface Columns {
  /** The query's filters as a test on a product number, or undefined when it has none. */
  filter(query: SearchQuery): ((product: number) => boolean) | undefined;
}

function loadColumns(file: SearchIndexFile): Columns {
  const count = file.ids.length;
  const category = Uint32Array.from(file.category);
  const firstVariant = new Uint32Array(count + 1);
  for (let product = 0; product < count; product += 1) {
    firstVariant[product + 1] = (firstVariant[product] as number) + (file.variants[product] ?? 0);
  }
  const prices = Float64Array.from(file.prices);
  // Each product's cheapest and dearest variant: most products fail a price range on these alone.
  const lowest = new Float64Array(count);
  const highest = new Float64Array(count);
  for (let product = 0; product < count; product += 1) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (
      let variant = firstVariant[product] as number;
      variant < (firstVariant[product + 1] as number);
      variant += 1
    ) {
      low = Math.min(low, prices[variant] as number);
      high = Math.max(high, prices[variant] as number);
    }
    lowest[product] = low;
    highest[product] = high;
  }
  const available = new Uint8Array(file.available.length);
  for (let variant = 0; variant < available.length; variant += 1) {
    available[variant] = file.available.charCodeAt(variant) === 0x31 ? 1 : 0;
  }
  return {
    filter(query) {
      const wanted = query.categories?.map((name) => name.trim().toLowerCase());
      const allowed =
        wanted && wanted.length > 0
          ? new Set(file.categories.flatMap((name, index) => (wanted.includes(name) ? [index] : [])))
          : undefined;
      const min = query.price?.min ?? 0;
      const max = query.price?.max ?? Number.POSITIVE_INFINITY;
      const onlyAvailable = query.available === true;
      const byVariant = query.price !== undefined || onlyAvailable;
      if (!allowed && !byVariant) return undefined;
      return (product) => {
        if (allowed && !allowed.has(category[product] as number)) return false;
        if (!byVariant) return true;
        if ((lowest[product] as number) > max || (highest[product] as number) < min) return false;
        const end = firstVariant[product + 1] as number;
        for (let variant = firstVariant[product] as number; variant < end; variant += 1) {
          if (onlyAvailable && available[variant] === 0) continue;
          const price = prices[variant] as number;
          if (price >= min && price <= max) return true;
        }
        return false;
      };
    },
  };
}
