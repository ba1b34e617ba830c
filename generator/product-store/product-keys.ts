/**
 * Each product's slug and digest by index (`ProductKeyColumn`, generator/plan.ts): what a
 * cached fragment or a packed shard is looked up by. A list on disk keeps them in a column
 * of its own (`KeyColumnWriter`), a few dozen bytes a product in two buffers, so that such
 * a lookup reads no product; an array gives them from its products, already in the heap.
 */
import { digestOfProduct } from '../cache/product-digest.js';
import type { PlannedProduct, PlannedProducts, ProductKeyColumn } from '../plan.js';
import { productAt } from './planned-products.js';
import { grownBuffer, TextColumnWriter } from './text-column.js';

/** The list's own column, or one that reads its products (cheap for an array). */
export function keyColumnOf(products: PlannedProducts): ProductKeyColumn {
  return (
    products.keyColumn ?? {
      slug: (index) => productAt(products, index, 'keyColumnOf').record.slug,
      digest: (index) => digestOfProduct(productAt(products, index, 'keyColumnOf')),
    }
  );
}

/** Bytes of a SHA-256. */
const DIGEST_BYTES = 32;

/**
 * Builds the column product by product: the slugs in a text column (text-column.ts), the
 * digests as raw bytes in a buffer. One string per product would cost V8 about three
 * times as much (a header and the hex digest at a byte a digit).
 */
export class KeyColumnWriter {
  readonly #slugs = new TextColumnWriter('slugs');
  #digests: Buffer = Buffer.allocUnsafe(1024 * DIGEST_BYTES);

  add(product: PlannedProduct): void {
    const slug = product.record.slug;
    const at = this.#slugs.count * DIGEST_BYTES;
    if (at + DIGEST_BYTES > this.#digests.length)
      this.#digests = grownBuffer(this.#digests, at + DIGEST_BYTES, at);
    const digest = digestOfProduct(product);
    if (this.#digests.write(digest, at, 'hex') !== DIGEST_BYTES)
      throw new TypeError(`KeyColumnWriter: ${slug}'s digest is not a SHA-256 in hex`);
    this.#slugs.add(slug);
  }

  /** The column of the products added, in their order; copied to its exact size. */
  finish(): ProductKeyColumn {
    const count = this.#slugs.count;
    const slugs = this.#slugs.finish();
    const digests = Buffer.from(this.#digests.subarray(0, count * DIGEST_BYTES));
    const mustHave = (index: number) => {
      if (!Number.isInteger(index) || index < 0 || index >= count)
        throw new TypeError(`the product keys have no product at ${index} of ${count}`);
    };
    return {
      slug(index) {
        mustHave(index);
        return slugs(index);
      },
      digest(index) {
        mustHave(index);
        return digests.toString('hex', index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
      },
    };
  }
}
