/**
 * The slug of each number on the normaliser's shelf, for a catalog on disk: its UTF-8 in one
 * growing buffer with where each starts and how long it is (a slug's bytes and 8 more),
 * where an array of strings costs V8 a header, a slot and padding besides (about twice
 * that). The normaliser confirms a slug owner against it without reading the shelf, and
 * the merge sorts the numbers by it (merge-shelved.ts). A number's slug may be replaced (a
 * newer copy of the product): its new bytes are appended and the old ones stay, unread.
 *
 * The order is the merge's (`compareText`: UTF-16 code units). UTF-8 bytes sort in code
 * point order, which is the same wherever no slug has a character past U+FFFF; a slug that
 * has one (or a lone surrogate, which UTF-8 cannot carry) is kept as its string beside
 * the column and compared as a string, so the order is exact.
 */

/** The length of a number with no slug (a product the normaliser dropped). */
const NONE = 0xffffffff;
const SURROGATE = /[\uD800-\uDFFF]/;

/** What the merge reads of the column. */
export interface ShelvedSlugs {
  /** The numbers it knows of, with a slug or not. */
  readonly length: number;
  /** The numbers with a slug: the products the catalog keeps. */
  readonly kept: number;
  has(index: number): boolean;
  slugAt(index: number): string | undefined;
  /** `a`'s slug against `b`'s, as `compareText` orders them; both must have one. */
  compare(a: number, b: number): number;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class SlugColumn implements ShelvedSlugs {
  #bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  #used = 0;
  #starts = new Uint32Array(1024);
  #lengths = new Uint32Array(1024).fill(NONE);
  #length = 0;
  #kept = 0;
  /** The slugs UTF-8 would not order (or keep) as strings do, by number: rare. */
  #strings = new Map<number, string>();

  get length(): number {
    return this.#length;
  }

  get kept(): number {
    return this.#kept;
  }

  /** Gives `index` (one known already, or the next) the slug `slug`. */
  set(index: number, slug: string): void {
    if (!Number.isInteger(index) || index < 0 || index > this.#length)
      throw new TypeError(`SlugColumn: no number ${index} of ${this.#length} to set`);
    if (index === this.#length) this.#addNumber();
    const size = Buffer.byteLength(slug, 'utf8');
    if (this.#used + size > NONE - 1) throw new RangeError('SlugColumn: more than 4 GiB of slugs');
    if (this.#used + size > this.#bytes.length) this.#growBytes(this.#used + size);
    if (this.#lengths[index] === NONE) this.#kept += 1;
    this.#starts[index] = this.#used;
    this.#lengths[index] = this.#bytes.write(slug, this.#used, 'utf8');
    this.#used += size;
    if (SURROGATE.test(slug)) this.#strings.set(index, slug);
    else this.#strings.delete(index);
  }

  /** Takes `index`'s slug away: the catalog does not keep that product. */
  drop(index: number): void {
    if (this.#lengths[index] === undefined || this.#lengths[index] === NONE) return;
    this.#lengths[index] = NONE;
    this.#strings.delete(index);
    this.#kept -= 1;
  }

  has(index: number): boolean {
    const length = this.#lengths[index];
    return length !== undefined && length !== NONE && index < this.#length;
  }

  slugAt(index: number): string | undefined {
    const length = this.#lengths[index];
    if (length === undefined || length === NONE || index >= this.#length) return undefined;
    const start = this.#starts[index] ?? 0;
    return this.#strings.get(index) ?? this.#bytes.toString('utf8', start, start + length);
  }

  /** True when `index`'s slug is `slug`. */
  holds(index: number, slug: string): boolean {
    const length = this.#lengths[index];
    if (length === undefined || length === NONE || index >= this.#length) return false;
    if (length !== Buffer.byteLength(slug, 'utf8')) return false;
    return this.slugAt(index) === slug;
  }

  compare(a: number, b: number): number {
    if (this.#strings.has(a) || this.#strings.has(b))
      return compareStrings(this.slugAt(a) ?? '', this.slugAt(b) ?? '');
    const startA = this.#starts[a] ?? 0;
    const startB = this.#starts[b] ?? 0;
    // `source.compare(target, targetStart, targetEnd, sourceStart, sourceEnd)`: a against b, no copy.
    return this.#bytes.compare(
      this.#bytes,
      startB,
      startB + (this.#lengths[b] ?? 0),
      startA,
      startA + (this.#lengths[a] ?? 0),
    );
  }

  /** Lets go of the spare room once no slug will be set again (bytes of replaced slugs stay). */
  seal(): void {
    this.#bytes = Buffer.from(this.#bytes.subarray(0, this.#used));
    this.#starts = this.#starts.slice(0, this.#length);
    this.#lengths = this.#lengths.slice(0, this.#length);
  }

  #addNumber(): void {
    if (this.#length === this.#starts.length) {
      const starts = new Uint32Array(Math.max(1024, this.#length * 2));
      const lengths = new Uint32Array(starts.length).fill(NONE);
      starts.set(this.#starts);
      lengths.set(this.#lengths);
      this.#starts = starts;
      this.#lengths = lengths;
    }
    this.#length += 1;
  }

  #growBytes(need: number): void {
    let size = Math.max(1 << 16, this.#bytes.length * 2);
    while (size < need) size *= 2;
    const bytes = Buffer.allocUnsafe(size);
    this.#bytes.copy(bytes, 0, 0, this.#used);
    this.#bytes = bytes;
  }
}
