/**
 * The merge stage over products on disk (normalise/product-shelf.ts), for a catalog too big
 * to hold: only each product's number and slug are in memory (the normaliser's slug
 * column, normalise/slug-column.ts, and the numbers in a typed array, 4 bytes a product);
 * the numbers are sorted by slug, and each product is read back by its number as the walk reaches it, merged with
 * its content file as `mergeProducts` would (`createContentMerger`). The outcome is the
 * merge's in the heap: the first product per slug kept (upstream order), the later ones
 * left out in upstream order, the products in slug order.
 */
import type { ProductContent } from './content/load-content.js';
import {
  createContentMerger,
  describeSlugClash,
  type LeftOutProduct,
  type MergeInput,
  type UpstreamProduct,
} from './merge.js';
import type { ShelvedProducts } from './normalise/product-shelf.js';
import type { PlannedProduct } from './plan.js';

export interface ShelvedMerge {
  /** How many products the catalog has: known before any is read. */
  count: number;
  leftOut: LeftOutProduct[];
  /** The merged products in slug order, each read from disk as it is reached. Walk once. */
  products(): Generator<PlannedProduct>;
  /** The content files no product used; ask once the walk is done. */
  unmatched(): ProductContent[];
}

function readProduct(shelved: ShelvedProducts, index: number): UpstreamProduct {
  const product = shelved.at(index);
  if (product === undefined) throw new TypeError(`the products on disk have no product ${index}`);
  return product;
}

/** The numbers of the products kept, in slug order, and the ones a slug already taken leaves out. */
function orderBySlug(shelved: ShelvedProducts): { order: Uint32Array; leftOut: LeftOutProduct[] } {
  const { slugs } = shelved;
  const numbers = new Uint32Array(slugs.kept);
  let count = 0;
  for (let index = 0; index < slugs.length; index += 1) if (slugs.has(index)) numbers[count++] = index;
  // Ties in upstream order: the first product of a slug comes first and is the one kept.
  // The column compares as `compareText` does, on its bytes, without making a string.
  numbers.sort((a, b) => slugs.compare(a, b) || a - b);
  const clashes: { index: number; product: LeftOutProduct }[] = [];
  let kept = 0;
  for (const index of numbers) {
    const first = kept === 0 ? undefined : numbers[kept - 1];
    if (first === undefined || slugs.compare(first, index) !== 0) {
      numbers[kept++] = index;
      continue;
    }
    const product = describeSlugClash(readProduct(shelved, index), readProduct(shelved, first));
    clashes.push({ index, product });
  }
  clashes.sort((a, b) => a.index - b.index);
  return { order: numbers.subarray(0, kept), leftOut: clashes.map((clash) => clash.product) };
}

export function mergeShelvedProducts(
  shelved: ShelvedProducts,
  input: Omit<MergeInput, 'upstream'>,
): ShelvedMerge {
  const { order, leftOut } = orderBySlug(shelved);
  const merger = createContentMerger(input);
  return {
    count: order.length,
    leftOut,
    *products() {
      for (const index of order) yield merger.planProduct(readProduct(shelved, index));
    },
    unmatched: () => merger.unmatched(),
  };
}
