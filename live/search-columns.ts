/**
 * The search filters over typed columns: each product's category, each variant's price in
 * minor units and availability, and the variants in price order (search-columns-file.ts).
 * A price range is two binary searches over that order; the variants between them are the
 * only ones a price filter looks at, so a price-only search costs its matches, not a pass
 * over every variant of the catalog (unless the range holds so much of the catalog that
 * one pass in catalog order is cheaper). With text, each candidate's own variants are
 * checked instead whenever the candidates are fewer than the variants in the range.
 */
import { base64ToBytes } from './base64-bytes.js';
import { readUint32LittleEndian } from './search-columns-file.js';
import type { SearchIndexFile } from './search-index-file.js';

/**
 * A variant read in price order costs about this many reads in catalog order (scattered
 * against sequential: 63 against 16 ns per variant at 1,000,000 products, BENCHMARKS.md).
 */
const RANDOM_READS = 4;

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
  /**
   * The query's filters as a test on a product number, or undefined when it has none;
   * `candidates` is how many products it will be asked about. Valid until the next call.
   */
  filter(query: SearchQuery, candidates: number): ((product: number) => boolean) | undefined;
  /** Every product the query's filters let through, ascending (all of them when it has none). */
  matching(query: SearchQuery): Uint32Array;
}

export function loadColumns(file: SearchIndexFile): Columns {
  const { categories } = file;
  const count = file.ids.length;
  const category = Uint32Array.from(file.category);
  const firstVariant = new Uint32Array(count + 1);
  for (let product = 0; product < count; product += 1) {
    firstVariant[product + 1] = (firstVariant[product] as number) + (file.variants[product] ?? 0);
  }
  const prices = Float64Array.from(file.prices);
  const available = new Uint8Array(file.available.length);
  for (let variant = 0; variant < available.length; variant += 1) {
    available[variant] = file.available.charCodeAt(variant) === 0x31 ? 1 : 0;
  }
  const order = readUint32LittleEndian(base64ToBytes(file.price_order));
  if (order.length !== prices.length || firstVariant[count] !== prices.length) {
    throw new TypeError(
      `search index: ${order.length} variants in price order, ${prices.length} prices, ${firstVariant[count]} variants counted`,
    );
  }
  const productOf = new Uint32Array(prices.length);
  for (let product = 0; product < count; product += 1) {
    productOf.fill(product, firstVariant[product], firstVariant[product + 1]);
  }
  /** The first position in price order whose price is not below `price` (`above`: is above it). */
  const bound = (price: number, above: boolean): number => {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = prices[order[middle] as number] as number;
      if (above ? at <= price : at < price) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  /** The run of the price order within [min, max]: empty when min > max. */
  const range = (min: number, max: number): { start: number; end: number } => {
    const start = bound(min, false);
    return { start, end: Math.max(start, bound(max, true)) };
  };
  // Per product, the pass of `mark` that last reached it: nothing is cleared between queries.
  const stamp = new Uint32Array(count);
  let epoch = 0;

  /** Marks the products with a variant in the range (bought now, if asked); returns how many and the pass. */
  const mark = (min: number, max: number, onlyAvailable: boolean, found: Uint32Array | undefined) => {
    if (epoch === 0xffffffff) {
      stamp.fill(0);
      epoch = 0;
    }
    epoch += 1;
    let size = 0;
    const { start, end } = range(min, max);
    for (let at = start; at < end; at += 1) {
      const variant = order[at] as number;
      if (onlyAvailable && available[variant] === 0) continue;
      const product = productOf[variant] as number;
      if (stamp[product] === epoch) continue;
      stamp[product] = epoch;
      if (found) found[size] = product;
      size += 1;
    }
    return { size, pass: epoch };
  };

  const readFilters = (query: SearchQuery) => {
    const wanted = query.categories?.map((name) => name.trim().toLowerCase());
    const allowed =
      wanted && wanted.length > 0
        ? new Set(categories.flatMap((name, index) => (wanted.includes(name) ? [index] : [])))
        : undefined;
    const min = query.price?.min ?? 0;
    const max = query.price?.max ?? Number.POSITIVE_INFINITY;
    const onlyAvailable = query.available === true;
    const byVariant = query.price !== undefined || onlyAvailable;
    const inCategory = (product: number): boolean => !allowed || allowed.has(category[product] as number);
    return { allowed, min, max, onlyAvailable, byVariant, inCategory };
  };

  /** True when one of the product's variants is within [min, max] (and can be bought now, if asked). */
  const hasOffer = (product: number, min: number, max: number, onlyAvailable: boolean): boolean => {
    const end = firstVariant[product + 1] as number;
    for (let variant = firstVariant[product] as number; variant < end; variant += 1) {
      if (onlyAvailable && available[variant] === 0) continue;
      const price = prices[variant] as number;
      if (price >= min && price <= max) return true;
    }
    return false;
  };

  return {
    filter(query, candidates) {
      const { allowed, min, max, onlyAvailable, byVariant, inCategory } = readFilters(query);
      if (!allowed && !byVariant) return undefined;
      if (!byVariant) return inCategory;
      const { start, end } = range(min, max);
      if (end - start <= candidates) {
        // Fewer variants in the range than candidates: mark the range's products once.
        const { pass } = mark(min, max, onlyAvailable, undefined);
        return (product) => stamp[product] === pass && inCategory(product);
      }
      return (product) => inCategory(product) && hasOffer(product, min, max, onlyAvailable);
    },
    matching(query) {
      const { allowed, min, max, onlyAvailable, byVariant, inCategory } = readFilters(query);
      const { start, end } = range(min, max);
      if (!byVariant || (end - start) * RANDOM_READS > order.length) {
        // No price, or a range so wide that walking it in price order (a scattered read per
        // variant) would cost more than one pass over the variants in catalog order.
        const found = new Uint32Array(count);
        let size = 0;
        for (let product = 0; product < count; product += 1) {
          if (!inCategory(product) || (byVariant && !hasOffer(product, min, max, onlyAvailable))) continue;
          found[size] = product;
          size += 1;
        }
        return found.subarray(0, size);
      }
      const found = new Uint32Array(Math.min(count, end - start));
      const { size, pass } = mark(min, max, onlyAvailable, found);
      let products = found.subarray(0, size);
      if (size > count >>> 4) {
        // Much of the catalog: reading the marks in catalog order beats sorting them.
        let at = 0;
        for (let product = 0; product < count; product += 1) {
          if (stamp[product] !== pass) continue;
          found[at] = product;
          at += 1;
        }
      } else products.sort();
      if (allowed) products = products.filter(inCategory);
      return products;
    },
  };
}
