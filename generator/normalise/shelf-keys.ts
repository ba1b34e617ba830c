/**
 * The normaliser's keys of the products it kept, by number on its shelf: which upstream id
 * each number holds, which number owns each slug, and each number's slug (for the merge of
 * a catalog on disk). Ids and slugs are filed in digest tables (digest-table.ts), a few
 * bytes a product, instead of Maps and Sets of their strings, which cost a catalog of a
 * million products hundreds of megabytes. A digest hit is confirmed against the real
 * string before it counts: an id against the product read back from the shelf by its
 * number (one positioned read when the shelf is a file, only on a hit, which is a
 * duplicate or a one-in-thousands stranger), a slug against the slug column in the heap.
 * So two ids or slugs that shared a digest would still be two, and every rule of the
 * normaliser holds exactly as it did with the strings.
 */
import { DigestTable, keyDigest } from './digest-table.js';
import type { ProductShelf } from './product-shelf.js';
import { SlugColumn } from './slug-column.js';
import type { NormalisedProduct } from './types.js';

/** A kept product found by its upstream id: its number and the product as the shelf holds it. */
export interface KeptProduct {
  index: number;
  product: NormalisedProduct;
}

export class ShelfKeys {
  readonly #ids = new DigestTable();
  readonly #slugOwners = new DigestTable();
  readonly slugs = new SlugColumn();
  /** Ids seen and kept nowhere (their slug was another product's): few, so kept as strings. */
  readonly #refused = new Set<string>();

  constructor(private readonly shelf: ProductShelf) {}

  /** The kept product with upstream id `id`, confirmed by reading it back. */
  find(id: string): KeptProduct | undefined {
    const read: { product?: NormalisedProduct } = {};
    const index = this.#ids.find(keyDigest(id), (at) => {
      const product = this.shelf.at(at);
      if (product?.sourceId !== id) return false;
      read.product = product;
      return true;
    });
    return index === undefined || read.product === undefined ? undefined : { index, product: read.product };
  }

  /** The number on the shelf of the product with upstream id `id`. */
  numberOf(id: string): number | undefined {
    return this.find(id)?.index;
  }

  /** True when a product with upstream id `id` was met, kept or refused for its slug. */
  seen(id: string): boolean {
    return this.#refused.has(id) || this.find(id) !== undefined;
  }

  /** True when a product with upstream id `id` was met and refused for its slug. */
  refused(id: string): boolean {
    return this.#refused.has(id);
  }

  /** The number of the kept product whose slug is `slug`. */
  slugOwner(slug: string): number | undefined {
    return this.#slugOwners.find(keyDigest(slug), (at) => this.slugs.holds(at, slug));
  }

  /** Notes `id` as met and kept nowhere. */
  refuse(id: string): void {
    this.#refused.add(id);
  }

  /** Files the product about to be pushed as number `index` (the shelf's length). */
  keep(index: number, product: NormalisedProduct): void {
    this.#ids.add(keyDigest(product.sourceId), index);
    this.#slugOwners.add(keyDigest(product.record.slug), index);
    this.slugs.set(index, product.record.slug);
  }

  /** Number `index`'s slug is now `slug` (a newer copy): the old one is free again. */
  moveSlug(index: number, slug: string): void {
    const before = this.slugs.slugAt(index);
    if (before === slug) return;
    if (before !== undefined) this.#slugOwners.remove(keyDigest(before), index);
    this.#slugOwners.add(keyDigest(slug), index);
    this.slugs.set(index, slug);
  }
}
