/**
 * The plan's fragments backed by the fragment file (fragment-store.ts): a product's fragment
 * of a kind is read when the file has it for the product's digest, and rendered and stored
 * otherwise. The digest is the one the build cache computed for the product
 * (`digestProduct`), looked up rather than computed again for every fragment.
 */
import { createHash } from 'node:crypto';
import { parseJsonBytes } from '../json-bytes.js';
import type { PlannedProducts, ProductFragments, RunPart, ValidatedProducts } from '../plan.js';
import { productAt } from '../product-store/planned-products.js';
import { keyColumnOf } from '../product-store/product-keys.js';
import { digestOf } from '../validate/digests.js';
import { SeenDigests } from '../validate/seen-digests.js';
import type { FragmentStore } from './fragment-store.js';
import { digestOfProduct } from './product-digest.js';

export interface CachedFragments extends ProductFragments {
  /** How many fragments were copied and how many rendered, for the log. */
  readonly counts: { copied: number; rendered: number };
  /**
   * The products every fragment of which was copied from a row a published build's gate
   * passed: the gate of this build need not check them again (incremental-gate.ts).
   */
  validatedProducts(products: PlannedProducts): ValidatedProducts;
}

export function cachedFragments(store: FragmentStore): CachedFragments {
  const counts = { copied: 0, rendered: 0 };
  // Products with a fragment rendered here, or copied from a row no gate has passed yet:
  // their slugs' 8-byte digests, not the slugs (every product, on a cold build: a set of a
  // million strings at 1,000,000 products). Two slugs sharing a digest can only make a
  // product count as unchecked, and be checked again: never the other way.
  const unchecked = new SeenDigests();
  // A file this build started empty has no row a gate passed: no product is validated, so
  // none is hashed to say so (a cold build rendered every fragment of every product, and
  // hashed its slug each time: a second of 25 at 10,000 products).
  const noneValidated = store.state !== 'used';
  const markUnchecked = (slug: string): void => {
    if (!noneValidated) unchecked.add(digestOf(slug));
  };
  store.keepTouchedOnly(RUN_PARTS);
  /** The fragment of `kind` of the product `slug` at `digest`: copied when known, else rendered and kept. */
  const fragment = (kind: string, slug: string, digest: string, render: () => string): Buffer => {
    const known = store.get(kind, slug, digest);
    if (known !== undefined) {
      counts.copied += 1;
      if (!known.validated) markUnchecked(slug);
      return known.bytes;
    }
    const bytes = Buffer.from(render(), 'utf8');
    store.put(kind, slug, digest, bytes);
    counts.rendered += 1;
    markUnchecked(slug);
    return bytes;
  };
  const fragments: CachedFragments = {
    counts,
    bytes: (kind, product, render) => fragment(kind, product.record.slug, digestOfProduct(product), render),
    whole(kind, key, products, members, render, context) {
      // The members in their order, each at its digest (from the list's key column: no
      // product is read), and the context: what the file was made from. One string hashed
      // at once: the SHA-256 of its lines as one update per line would give, without
      // crossing into the hash a few hundred thousand times at 100,000.
      const column = keyColumnOf(products);
      let lines = context === undefined ? '' : `${context}\u0000\n`;
      for (const member of members) lines += `${column.slug(member)}\u0000${column.digest(member)}\n`;
      const digest = createHash('sha256').update(lines).digest('hex');
      const known = store.get(kind, key, digest);
      if (known !== undefined) {
        counts.copied += 1;
        // Copied from a row no gate passed yet: its products were not checked in it.
        if (!known.validated) for (const member of members) markUnchecked(column.slug(member));
        return known.bytes;
      }
      const bytes = Buffer.from(render(), 'utf8');
      store.put(kind, key, digest, bytes);
      counts.rendered += 1;
      return bytes;
    },
    elements(kind, products, render) {
      // Looked up by the key column: a fragment the file has is copied without reading its product.
      const column = keyColumnOf(products);
      return {
        length: products.length,
        slug: (index) => column.slug(index),
        key: (index) => `${kind}\u0000${column.slug(index)}\u0000${column.digest(index)}`,
        read: (index) =>
          fragment(kind, column.slug(index), column.digest(index), () =>
            render(productAt(products, index, kind)),
          ),
      };
    },
    runParts(key, members) {
      const known = store.get(RUN_PARTS, key, key);
      const parts = known === undefined ? undefined : parseRunParts(known.bytes);
      if (known === undefined || parts === undefined) return undefined;
      counts.copied += 1;
      // Kept from a run no gate passed yet: its products were not checked in it.
      if (!known.validated) for (const slug of members) markUnchecked(slug);
      return parts;
    },
    keepRunParts(key, parts) {
      store.put(
        RUN_PARTS,
        key,
        key,
        Buffer.from(JSON.stringify(parts.map((part) => [part.length, part.sha256]))),
      );
    },
    runLength(document) {
      const known = store.get(RUN_LENGTH, document, '');
      const length = known === undefined ? Number.NaN : Number(known.bytes.toString('utf8'));
      return Number.isSafeInteger(length) && length >= 1 ? length : undefined;
    },
    keepRunLength(document, length) {
      store.put(RUN_LENGTH, document, '', Buffer.from(String(length)));
    },
    validatedProducts(products) {
      const column = keyColumnOf(products);
      const isValidated = (slug: string): boolean => !noneValidated && !unchecked.has(digestOf(slug));
      let size = 0;
      for (let index = 0; index < products.length; index += 1) if (isValidated(column.slug(index))) size += 1;
      return {
        size,
        has: isValidated,
        *[Symbol.iterator]() {
          for (let index = 0; index < products.length; index += 1) {
            const slug = column.slug(index);
            if (isValidated(slug)) yield slug;
          }
        },
      };
    },
  };
  return fragments;
}

/** The fragment kinds of how a parted document's runs were cut, and how long its runs are. */
const RUN_PARTS = 'run-parts';
const RUN_LENGTH = 'run-length';

/** A run's parts as `keepRunParts` stored them; undefined for a row that is not one. */
function parseRunParts(bytes: Buffer): RunPart[] | undefined {
  const value = parseJsonBytes(bytes);
  if (!Array.isArray(value)) return undefined;
  const parts: RunPart[] = [];
  for (const item of value) {
    if (!Array.isArray(item) || !Number.isSafeInteger(item[0]) || typeof item[1] !== 'string')
      return undefined;
    parts.push({ length: item[0] as number, sha256: item[1] });
  }
  return parts;
}
