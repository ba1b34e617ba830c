/**
 * The ids a feed check has met, to say the second row that names one: a bit per number the
 * catalog gives (an offer's number for a variant id, a place for a product id), and the
 * text of the few ids the catalog does not hold, which are said as they come. A set of
 * every id's text cost the gate about 46 bytes a variant (BENCHMARKS.md, "the feed checks'
 * seen ids"); the bits cost one eighth of a byte. A number stands for its id because the
 * catalog finds every id by its digest, so the same id is always the same number (two ids
 * sharing a digest is as unlikely as `catalog-offers.ts` says).
 */

/** What a check asks of the ids met: whether the id of this number was among them. */
export interface SeenNumbers {
  has(number: number): boolean;
}

export class SeenIds implements SeenNumbers {
  readonly #bits: Uint8Array;
  /** The ids the catalog has no number for (-1): few, each already said not to be in it. */
  readonly #outside = new Set<string>();

  /** `size`: how many numbers the catalog gives (0 without a catalog, when every id is outside it). */
  constructor(size: number) {
    this.#bits = new Uint8Array(Math.ceil(size / 8));
  }

  /** Adds the id (`number` the catalog's for it, or -1), and says whether it was met before. */
  add(number: number, id: string): boolean {
    if (number === -1) {
      const met = this.#outside.has(id);
      this.#outside.add(id);
      return met;
    }
    if (!Number.isInteger(number) || number < 0 || number >= this.#bits.length * 8)
      throw new TypeError(`SeenIds: ${number} is not a number the catalog gives`);
    const bit = 1 << (number & 7);
    const byte = this.#bits[number >>> 3] ?? 0;
    this.#bits[number >>> 3] = byte | bit;
    return (byte & bit) !== 0;
  }

  has(number: number): boolean {
    return ((this.#bits[number >>> 3] ?? 0) & (1 << (number & 7))) !== 0;
  }

  /** The bytes kept, not counting the ids outside the catalog. */
  get byteLength(): number {
    return this.#bits.byteLength;
  }
}
