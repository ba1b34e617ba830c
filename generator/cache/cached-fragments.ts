/**
 * The plan's fragments backed by the fragment file (fragment-store.ts): a product's fragment
 * of a kind is read when the file has it for the product's digest, and rendered and stored
 * otherwise. The digest is the one the build cache computed for the product
 * (`digestProduct`), looked up rather than computed again for every fragment.
 */
import { createHash } from 'node:crypto';
import type { PlannedProduct, ProductFragments } from '../plan.js';
import type { FragmentStore } from './fragment-store.js';
import { digestProduct } from './product-digest.js';

export interface CachedFragments extends ProductFragments {
  /** How many fragments were copied and how many rendered, for the log. */
  readonly counts: { copied: number; rendered: number };
  /**
   * The products every fragment of which was copied from a row a published build's gate
   * passed: the gate of this build need not check them again (incremental-gate.ts).
   */
  validatedProducts(products: readonly PlannedProduct[]): Set<string>;
}

export function cachedFragments(
  store: FragmentStore,
  knownDigests: WeakMap<PlannedProduct, string>,
): CachedFragments {
  const counts = { copied: 0, rendered: 0 };
  // Products with a fragment rendered here, or copied from a row no gate has passed yet.
  const unchecked = new Set<string>();
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
      const { slug } = product.record;
      const known = store.get(kind, slug, digest);
      if (known !== undefined) {
        counts.copied += 1;
        if (!known.validated) unchecked.add(slug);
        return known.bytes;
      }
      const bytes = Buffer.from(render(), 'utf8');
      store.put(kind, slug, digest, bytes);
      counts.rendered += 1;
      unchecked.add(slug);
      return bytes;
    },
    whole(kind, key, members, render) {
      // The members in their order, each at its digest: what the file was made from.
      const hash = createHash('sha256');
      for (const member of members) hash.update(`${member.record.slug}\u0000${digestOf(member)}\n`);
      const digest = hash.digest('hex');
      const known = store.get(kind, key, digest);
      if (known !== undefined) {
        counts.copied += 1;
        // Copied from a row no gate passed yet: its products were not checked in it.
        if (!known.validated) for (const member of members) unchecked.add(member.record.slug);
        return known.bytes;
      }
      const bytes = Buffer.from(render(), 'utf8');
      store.put(kind, key, digest, bytes);
      counts.rendered += 1;
      return bytes;
    },
    validatedProducts(products) {
      return new Set(products.map((product) => product.record.slug).filter((slug) => !unchecked.has(slug)));
    },
  };
}
