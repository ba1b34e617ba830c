/**
 * Walking the plan's products (`PlannedProducts`, generator/plan.ts) without holding them:
 * the list may be read back from disk one product at a time (stored-products.ts), so these
 * keep only what the caller derives from each product.
 */
import type { ProductRecord } from '../model.js';
import type { PlannedProduct, PlannedProducts } from '../plan.js';

/** Each product's record, in plan order, read as the walk reaches it. */
export function* recordsOf(products: PlannedProducts): Generator<ProductRecord> {
  for (const product of products) yield product.record;
}

/** What `derive` makes of each product, in plan order: an array of the derived values only. */
export function mapProducts<T>(
  products: PlannedProducts,
  derive: (product: PlannedProduct, index: number) => T,
): T[] {
  const derived: T[] = [];
  let index = 0;
  for (const product of products) derived.push(derive(product, index++));
  return derived;
}

/** The first `count` products (fewer when the list is shorter). */
export function firstProducts(products: PlannedProducts, count: number): PlannedProduct[] {
  const first: PlannedProduct[] = [];
  for (const product of products) {
    if (first.length >= count) break;
    first.push(product);
  }
  return first;
}

/**
 * The product at `index`, which the caller knows is there (an index it took from this
 * list): a missing one is a bug, named by `who`.
 */
export function productAt(products: PlannedProducts, index: number, who: string): PlannedProduct {
  const product = products.at(index);
  if (product === undefined) throw new TypeError(`${who}: no product at ${index} of ${products.length}`);
  return product;
}
