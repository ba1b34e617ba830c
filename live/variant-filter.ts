/**
 * UCP search filters applied to the variants of a resolved product (catalog lookup,
 * "Filters": "Filters apply after identifier resolution (lookup) or option selection
 * (get_product)"; "a price filter excludes variants outside the specified range"), with the
 * same meaning search gives them: price in minor units, categories (any of, case-insensitive,
 * on the product), `available: true` for variants that can be bought now.
 */
import type { UcpProduct, UcpVariant } from './ucp-types.js';

export interface CatalogFilters {
  categories?: readonly string[] | undefined;
  price?: { min?: number | undefined; max?: number | undefined } | undefined;
  available?: boolean | undefined;
}

/** The product's variants that pass, in order; all of them when no filter is given. */
export function filterVariants(product: UcpProduct, filters: CatalogFilters | undefined): UcpVariant[] {
  if (filters === undefined) return product.variants;
  const categories = filters.categories?.map((category) => category.trim().toLowerCase()) ?? [];
  if (categories.length > 0) {
    const own = (product.categories ?? []).map((category) => category.value.trim().toLowerCase());
    if (!own.some((category) => categories.includes(category))) return [];
  }
  const min = filters.price?.min ?? 0;
  const max = filters.price?.max ?? Number.POSITIVE_INFINITY;
  return product.variants.filter(
    (variant) =>
      variant.price.amount >= min &&
      variant.price.amount <= max &&
      (filters.available !== true || variant.availability.available),
  );
}
