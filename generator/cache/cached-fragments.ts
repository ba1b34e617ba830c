/**
 * The plan's fragments backed by the fragment file (fragment-store.ts): a product's fragment
 * of a kind is read when the file has it for the product's digest, and rendered and stored
 * otherwise. The digest is the one the build cache computed for the product
 * (`digestProduct`), looked up rather than computed again for every fragment.
 */
import type { PlannedProduct, ProductFragments } from '../plan.js';
import type { FragmentStore } from './fragment-store.js';
import { digestProduct } from './product-digest.js';

export interface CachedFragments extends ProductFragments {
  /** How many fragments were copied and how many rendered, for the log. */
  readonly counts: { copied: number; rendered: number };
}

export function cachedFragments(
  store: FragmentStore,
  knownDigests: WeakMap<PlannedProduct, string>,
): CachedFragments {
  const counts = { copied: 0, rendered: 0 };
  const digestOf = (product: PlannedProduct) => {
    const known = knownDigests.get(product);
    if (known !== undefined) return known;
    const digest = digestProduct(product);
    knownDigests.set(product, digest);
    return digest;
  };
  return {
    counts,
    bytes(kind, product, render) {
      const digest = digestOf(product);
      const known = store.get(kind, digest);
      if (known !== undefined) {
        counts.copied += 1;
        return known;
      }
      const bytes = Buffer.from(render(), 'utf8');
      store.put(kind, digest, bytes);
      counts.rendered += 1;
      return bytes;
    },
  };
}
