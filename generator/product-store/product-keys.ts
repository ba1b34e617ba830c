/**
 * Each product's slug and digest by index (`ProductKeyColumn`, generator/plan.ts): what a
 * cached fragment or a packed shard is looked up by. A list on disk keeps them in a column
 * of its own (`KeyColumnWriter`), a few dozen bytes a product in two buffers, so that such
 * a lookup reads no product; an array gives them from its products, already in the heap.
 */
import { digestOfProduct } from '../cache/product-digest.js';
import type { PlannedProduct, PlannedProducts, ProductKeyColumn } from '../plan.js';
import { productAt } from './planned-products.js';

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
 * Builds the column product by product: the slugs' UTF-8 end to end in one buffer with
 * their end offsets, the digests as raw bytes in another. One string per product would
 * cost V8 about three times as much (a header and the hex digest at a byte a digit).
 */
export class KeyColumnWriter {
  #slugs: Buffer = Buffer.allocUnsafe(1 << 16);
  #slugBytes = 0;
  #ends = new Uint32Array(1024);
  #digests: Buffer = Buffer.allocUnsafe(1024 * DIGEST_BYTES);
  #count = 0;

  add(product: PlannedProduct): void {
    const slug = product.record.slug;
    const need = this.#slugBytes + Buffer.byteLength(slug, 'utf8');
    // The ends are 32-bit: 4 GiB of slugs is far past any catalog (about 40 MB at 1,000,000).
    if (need > 0xffffffff) throw new RangeError('KeyColumnWriter: more than 4 GiB of slugs');
    if (need > this.#slugs.length) this.#slugs = grown(this.#slugs, need, this.#slugBytes);
    if (this.#count >= this.#ends.length) {
      const ends = new Uint32Array(this.#ends.length * 2);
      ends.set(this.#ends);
      this.#ends = ends;
      this.#digests = grown(this.#digests, ends.length * DIGEST_BYTES, this.#count * DIGEST_BYTES);
    }
    this.#slugBytes += this.#slugs.write(slug, this.#slugBytes, 'utf8');
    this.#ends[this.#count] = this.#slugBytes;
    const digest = digestOfProduct(product);
    if (this.#digests.write(digest, this.#count * DIGEST_BYTES, 'hex') !== DIGEST_BYTES)
      throw new TypeError(`KeyColumnWriter: ${slug}'s digest is not a SHA-256 in hex`);
    this.#count += 1;
  }

  /** The column of the products added, in their order; copied to its exact size. */
  finish(): ProductKeyColumn {
    const count = this.#count;
    const slugs = Buffer.from(this.#slugs.subarray(0, this.#slugBytes));
    const ends = this.#ends.slice(0, count);
    const digests = Buffer.from(this.#digests.subarray(0, count * DIGEST_BYTES));
    const mustHave = (index: number) => {
      if (!Number.isInteger(index) || index < 0 || index >= count)
        throw new TypeError(`the product keys have no product at ${index} of ${count}`);
    };
    return {
      slug(index) {
        mustHave(index);
        return slugs.toString('utf8', index === 0 ? 0 : ends[index - 1], ends[index]);
      },
      digest(index) {
        mustHave(index);
        return digests.toString('hex', index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
      },
    };
  }
}

/** A buffer of at least `need` bytes (doubling) holding the first `used` bytes of `buffer`. */
function grown(buffer: Buffer, need: number, used: number): Buffer {
  let size = buffer.length * 2;
  while (size < need) size *= 2;
  const bigger = Buffer.allocUnsafe(size);
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}
