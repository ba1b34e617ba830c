/**
 * The rules that derive a product's summary fields from its variants, in one place so
 * that no adapter, emitter or handler derives them differently (docs/spec.md states them):
 * - `price`: the lowest price among variants that are in stock, or among all variants
 *   when none is (the seed's documented rule);
 * - `availability`: `in_stock` when any variant is, else `coming_soon` when any variant
 *   is, else `out_of_stock` (an adapter marks every variant `coming_soon` when the store
 *   tags the product so);
 * - `price_range`: the lowest and highest price over all variants, only when they differ;
 * - `compare_at_price`: the "was" price of the variant that sets `price`, only when every
 *   variant is on sale (otherwise "on sale, was X" would be untrue for some choices);
 * - `requires_shipping`: true when any variant needs shipping.
 */
import { compareDecimal } from './decimal-price.js';
import type { Availability, PriceRange, ProductVariant } from './product-record.js';

export interface VariantSummary {
  price: string;
  availability: Availability;
  price_range?: PriceRange;
  compare_at_price?: string;
  requires_shipping: boolean;
}

/** The summary of a non-empty list of variants; a caller's empty list is a TypeError. */
export function summariseVariants(variants: readonly ProductVariant[]): VariantSummary {
  const [first] = variants;
  if (first === undefined) throw new TypeError('summariseVariants needs at least one variant');
  const inStock = variants.filter((variant) => variant.availability === 'in_stock');
  const pool = inStock.length > 0 ? inStock : variants;
  const headline = pool.reduce((low, variant) =>
    compareDecimal(variant.price, low.price) < 0 ? variant : low,
  );
  const prices = variants.map((variant) => variant.price).sort(compareDecimal);
  const min = prices[0] ?? first.price;
  const max = prices[prices.length - 1] ?? first.price;
  const everyOnSale = variants.every((variant) => variant.compare_at_price !== undefined);
  return {
    price: headline.price,
    availability: decideAvailability(variants),
    ...(compareDecimal(min, max) !== 0 ? { price_range: { min, max } } : {}),
    ...(everyOnSale && headline.compare_at_price !== undefined
      ? { compare_at_price: headline.compare_at_price }
      : {}),
    requires_shipping: variants.some((variant) => variant.requires_shipping),
  };
}

function decideAvailability(variants: readonly ProductVariant[]): Availability {
  if (variants.some((variant) => variant.availability === 'in_stock')) return 'in_stock';
  if (variants.some((variant) => variant.availability === 'coming_soon')) return 'coming_soon';
  return 'out_of_stock';
}

/** A "was" price worth publishing: only one strictly higher than the price it stands beside. */
export function readCompareAtPrice(price: string, compareAt: string | undefined): string | undefined {
  return compareAt !== undefined && compareDecimal(compareAt, price) > 0 ? compareAt : undefined;
}
