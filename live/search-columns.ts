/**
 * The search filters over the index's partitions (search-partitions.ts): categories and
 * "has a variant / one that can be bought now" from the facets, price ranges from the
 * variants in price order. A price range is a binary search over the root's first prices,
 * then a pass over the entries of the partitions it touches (each entry is a product
 * number with its availability bit, so the pass sets bits in a bitmap of the catalog and
 * never reads another array); the bitmap read in order lists the products in catalog order.
 * A range holding every price asks the facets instead.
 */

import { ProductBitmap } from './product-bitmap.js';
import { HAS_AVAILABLE, HAS_VARIANT, type SpanColumn } from './search-partition-format.js';
import type { PartitionStore, PricePartition } from './search-partitions.js';
import { lowerBound, upperBound } from './search-postings.js';
import { type SearchAnswer, SpanAnswer } from './search-span-answer.js';

export interface SearchQuery {
  text?: string;
  /** Any of these categories (case-insensitive). */
  categories?: readonly string[];
  /** Minor units; a product matches when one of its variants is within. */
  price?: { min?: number; max?: number };
  /** true: only products with a variant that can be bought now (and, with `price`, is within it). */
  available?: boolean;
}

export interface Columns {
  /** The candidates (ascending) the query's filters let through, in their order. */
  keep(query: SearchQuery, candidates: Uint32Array): Promise<Uint32Array>;
  /**
   * Every product the query's filters let through, ascending (all of them when it has
   * none); a range open at one end is counted, and written out a page at a time.
   */
  matching(query: SearchQuery): Promise<SearchAnswer>;
}

export function partitionedColumns(store: PartitionStore): Columns {
  const { root } = store;
  const count = root.products;
  const firsts = root.prices;
  const span = root.price_span;
  // One bit per product: set by a price range's pass, read back in catalog order.
  const bitmap = new ProductBitmap(count);
  /** The range whose products the bitmap holds, if it holds one whole. */
  let marked: string | undefined;

  const readFilters = (query: SearchQuery) => {
    const wanted = query.categories?.map((name) => name.trim().toLowerCase());
    // Per category, 1 when the query asks for it (a typed array: it is read once per product).
    const allowed =
      wanted && wanted.length > 0
        ? Uint8Array.from(root.categories, (name) => (wanted.includes(name) ? 1 : 0))
        : undefined;
    const min = query.price?.min ?? 0;
    const max = query.price?.max ?? Number.POSITIVE_INFINITY;
    const onlyAvailable = query.available === true;
    const byVariant = query.price !== undefined || onlyAvailable;
    // No variant at all, or an empty range: no product has an offer within it.
    const none = byVariant && (span === null || min > max);
    // No price below the range's start, or none above its end: that end asks nothing.
    const lowOpen = span !== null && min <= span[0];
    const highOpen = span !== null && max >= span[1];
    // Every price within the range: having a variant (one bought now, if asked) is enough.
    const everyPrice = lowOpen && highOpen;
    const need = onlyAvailable ? HAS_AVAILABLE : HAS_VARIANT;
    // Open at one end and holding much of the catalog: each product's highest (or lowest)
    // price decides, one comparison a product instead of a pass over the variants within.
    let spanColumn: SpanColumn | undefined;
    if (byVariant && !none && !everyPrice && (lowOpen || highOpen) && rangeEntries(min, max) * 4 > count) {
      spanColumn = `${highOpen ? 'max' : 'min'}${onlyAvailable ? '-available' : ''}`;
    }
    // The span column's test as one range: "from $x" is [x, ∞), "under $y" (-∞, y].
    const spanBounds: [number, number] = highOpen
      ? [min, Number.POSITIVE_INFINITY]
      : [Number.NEGATIVE_INFINITY, max];
    const passes = (price: number): boolean => price >= spanBounds[0] && price <= spanBounds[1];
    return {
      allowed,
      min,
      max,
      onlyAvailable,
      byVariant,
      none,
      everyPrice,
      need,
      spanColumn,
      passes,
      spanBounds,
    };
  };

  /** About how many variants the price partitions a range touches hold. */
  const rangeEntries = (min: number, max: number): number => {
    const from = Math.max(0, lowerBound(firsts, min) - 1);
    const to = upperBound(firsts, max) - 1;
    return (Math.max(0, to - from + 1) * root.variants) / Math.max(1, firsts.length);
  };

  /** Sets the bit of each product with a variant in [min, max] (bought now, if asked), clearing the rest. */
  const markRange = async (min: number, max: number, onlyAvailable: boolean): Promise<void> => {
    // A query whose exact words the range empties asks again with looser words: mark once.
    const range = `${min} ${max} ${onlyAvailable}`;
    if (marked === range) return;
    marked = undefined;
    bitmap.clear();
    const from = Math.max(0, lowerBound(firsts, min) - 1);
    const to = upperBound(firsts, max) - 1;
    const partitions = await Promise.all(
      Array.from({ length: Math.max(0, to - from + 1) }, (_, at) => store.prices(from + at)),
    );
    for (let at = 0; at < partitions.length; at += 1) {
      const partition = partitions[at] as PricePartition;
      const index = from + at;
      const { entries } = partition;
      let start = 0;
      let end = entries.length;
      // Only a partition at an end of the range has entries outside it: find them by price.
      if (!(partition.first >= min && index + 1 < firsts.length && (firsts[index + 1] as number) <= max)) {
        [start, end] = partition.within(min, max);
      }
      markEntries(bitmap.words, entries, start, end, onlyAvailable);
    }
    marked = range;
  };

  /** A column of these products (ascending), by product number: each block read once. */
  const columnOf = async (
    products: ArrayLike<number>,
    load: (block: number) => Promise<ArrayLike<number>>,
  ): Promise<(product: number) => number> => {
    const size = root.facets_block;
    const blocks: number[] = [];
    for (let at = 0; at < products.length; at += 1) {
      const block = Math.floor((products[at] as number) / size);
      if (blocks[blocks.length - 1] !== block) blocks.push(block);
    }
    const loaded: ArrayLike<number>[] = [];
    await Promise.all(
      blocks.map(async (block) => {
        loaded[block] = await load(block);
      }),
    );
    return (product) => (loaded[Math.floor(product / size)]?.[product % size] as number) ?? 0;
  };

  const facetsOf = (products: ArrayLike<number>) => columnOf(products, (block) => store.facets(block));

  return {
    async keep(query, candidates) {
      const filters = readFilters(query);
      const { allowed, byVariant, everyPrice, need } = filters;
      if (!allowed && !byVariant) return candidates;
      if (filters.none) return new Uint32Array();
      const { spanColumn, passes } = filters;
      const byRange = byVariant && !everyPrice && !spanColumn;
      if (byRange) await markRange(filters.min, filters.max, filters.onlyAvailable);
      const facet = allowed || !byRange ? await facetsOf(candidates) : () => 0;
      const spanOf = spanColumn
        ? await columnOf(candidates, (block) => store.spans(spanColumn, block))
        : () => 0;
      return candidates.filter((product) => {
        if (allowed && allowed[facet(product) >>> 2] !== 1) return false;
        if (byRange) return bitmap.has(product);
        if (spanColumn) return passes(spanOf(product));
        return !byVariant || (facet(product) & need) !== 0;
      });
    },
    async matching(query) {
      const filters = readFilters(query);
      const { allowed, byVariant, everyPrice, need } = filters;
      if (filters.none) return new Uint32Array();
      const { spanColumn } = filters;
      if (spanColumn) {
        const blocks = Math.ceil(count / root.facets_block);
        const [spans, facets] = await Promise.all([
          Promise.all(Array.from({ length: blocks }, (_, block) => store.spans(spanColumn, block))),
          allowed
            ? Promise.all(Array.from({ length: blocks }, (_, block) => store.facets(block)))
            : undefined,
        ]);
        const [low, high] = filters.spanBounds;
        return new SpanAnswer({ spans, facets, allowed, blockSize: root.facets_block }, low, high);
      }
      if (byVariant && !everyPrice) {
        await markRange(filters.min, filters.max, filters.onlyAvailable);
        const found = bitmap.list();
        if (!allowed) return found;
        const facet = await facetsOf(found);
        return found.filter((product) => allowed[facet(product) >>> 2] === 1);
      }
      const found = new Uint32Array(count);
      if (!allowed && !byVariant) {
        for (let product = 0; product < count; product += 1) found[product] = product;
        return found;
      }
      // Every product's facets, block by block in catalog order.
      const blocks = await Promise.all(
        Array.from({ length: Math.ceil(count / root.facets_block) }, (_, block) => store.facets(block)),
      );
      let size = 0;
      blocks.forEach((facets, block) => {
        for (let at = 0; at < facets.length; at += 1) {
          const facet = facets[at] as number;
          if (allowed && allowed[facet >>> 2] !== 1) continue;
          if (byVariant && (facet & need) === 0) continue;
          found[size] = block * root.facets_block + at;
          size += 1;
        }
      });
      return found.subarray(0, size);
    },
  };
}

/** Sets the bit of the product of each entry in [start, end) (only entries bought now, if asked). */
function markEntries(
  bits: Uint32Array,
  entries: Uint32Array,
  start: number,
  end: number,
  onlyAvailable: boolean,
): void {
  const skip = onlyAvailable ? 1 : 0;
  for (let entry = start; entry < end; entry += 1) {
    const value = entries[entry] as number;
    if ((value & skip) !== skip) continue;
    const product = value >>> 1;
    bits[product >>> 5] = (bits[product >>> 5] as number) | (1 << (product & 31));
  }
}
