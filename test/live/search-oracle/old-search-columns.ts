/**
 * The oracle's filters: live/search-columns.ts as it was before the price order (main at
 * 757a93c), a pass over each candidate's variants with its cheapest and dearest first.
 * Test-only, for search-equivalence.test.ts.
 */
import type { SearchQuery } from '../../../live/search-columns.js';
import type { SearchIndexFile } from '../../../live/search-index-file.js';

export interface Columns {
  /** The query's filters as a test on a product number, or undefined when it has none. */
  filter(query: SearchQuery): ((product: number) => boolean) | undefined;
}

export function loadColumns(file: SearchIndexFile): Columns {
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
