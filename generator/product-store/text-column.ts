/**
 * One short text per product (a slug, a price), by index, without one string per product:
 * the texts' UTF-8 end to end in one buffer with their end offsets, about the text's bytes
 * and 4 more a product. One V8 string per product would cost about three times as much
 * and hold the collector's attention for the whole build.
 */

/** Appends texts in product order; `finish` gives the column that reads them back. */
export class TextColumnWriter {
  readonly #what: string;
  #bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  #used = 0;
  #ends = new Uint32Array(1024);
  #count = 0;

  /** `what` names the column in its errors ("slugs", "prices"). */
  constructor(what: string) {
    this.#what = what;
  }

  get count(): number {
    return this.#count;
  }

  add(text: string): void {
    const need = this.#used + Buffer.byteLength(text, 'utf8');
    // The ends are 32-bit: 4 GiB of texts is far past any catalog (slugs: about 40 MB at 1,000,000).
    if (need > 0xffffffff) throw new RangeError(`TextColumnWriter: more than 4 GiB of ${this.#what}`);
    if (need > this.#bytes.length) this.#bytes = grownBuffer(this.#bytes, need, this.#used);
    if (this.#count >= this.#ends.length) {
      const ends = new Uint32Array(this.#ends.length * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#used += this.#bytes.write(text, this.#used, 'utf8');
    this.#ends[this.#count] = this.#used;
    this.#count += 1;
  }

  /** The texts added, by index, copied to their exact size. */
  finish(): (index: number) => string {
    const bytes = Buffer.from(this.#bytes.subarray(0, this.#used));
    const ends = this.#ends.slice(0, this.#count);
    return (index) => bytes.toString('utf8', index === 0 ? 0 : ends[index - 1], ends[index]);
  }
}

/** A buffer of at least `need` bytes (doubling) holding the first `used` bytes of `buffer`. */
export function grownBuffer(buffer: Buffer, need: number, used: number): Buffer {
  let size = buffer.length * 2;
  while (size < need) size *= 2;
  const bigger = Buffer.allocUnsafe(size);
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}
