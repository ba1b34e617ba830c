/**
 * Where the normaliser keeps the products it mapped, in upstream order, by number: an array
 * in the heap, or (a big catalog) a file the sources hand it (product-store/product-shelf.ts).
 * The normaliser's rules (a newer copy wins, one product per slug, grouped products) read
 * and replace products by number, so they hold the same whichever shelf keeps them.
 */
import type { ShelvedSlugs } from './slug-column.js';
import type { NormalisedProduct } from './types.js';

export interface ProductShelf {
  readonly length: number;
  at(index: number): NormalisedProduct | undefined;
  push(product: NormalisedProduct): void;
  set(index: number, product: NormalisedProduct): void;
  /** The products themselves while they are in the heap; undefined once they are in a file. */
  inHeap(): NormalisedProduct[] | undefined;
  /** Lets go of a file; nothing for an array. Safe to call twice. */
  close(): void;
}

/**
 * The normaliser's products on disk once it is done: read by number, with the slug of each
 * number the catalog keeps (undefined for a number it dropped: a refused grouped product).
 */
export interface ShelvedProducts {
  readonly slugs: ShelvedSlugs;
  at(index: number): NormalisedProduct | undefined;
  /** Deletes the file. Safe to call twice. */
  close(): void;
}

/** A shelf that is an array: the products stay in the heap. */
export function arrayShelf(products: NormalisedProduct[] = []): ProductShelf {
  return {
    get length() {
      return products.length;
    },
    at: (index) => products[index],
    push: (product) => {
      products.push(product);
    },
    set: (index, product) => {
      products[index] = product;
    },
    inHeap: () => products,
    close: () => {},
  };
}
