/**
 * A hash table from a string key (a product's upstream id, its slug) to a whole number (the
 * product's number on the normaliser's shelf), in two typed arrays instead of a Map of
 * strings: only 32 bits of the key's SHA-256 are kept, 8 bytes a slot with the number,
 * where a Map entry with its string costs 60 to 100 bytes. Two keys may share those 32 bits,
 * so a hit is a candidate only: the caller confirms it against the real string (the
 * product read back from the shelf by its number, or the slug column), which keeps every
 * answer exact whatever the digests do; a miss needs no confirming. Since every hit is
 * confirmed, more bits would only save a rare confirmation (about one lookup in 2^(32 - log2
 * of the table's size) meets a stranger with the same 32 bits), not make the table exact.
 *
 * Open addressing with linear probing over a power-of-two size, grown by doubling past three
 * quarters full; a removal shifts the entries after it back, so no tombstones pile up.
 */
import { hash } from 'node:crypto';

const EMPTY = -1;
const MAX_LOAD = 0.75;
const LEAST_SIZE = 16;

/** The 32 bits of `text`'s SHA-256 a `DigestTable` files it under. */
export function keyDigest(text: string): number {
  return hash('sha256', text, 'buffer').readUInt32BE(0);
}

export class DigestTable {
  #digests: Uint32Array;
  #numbers: Int32Array;
  #size = 0;

  /** `capacity`: the entries it takes before it first grows. */
  constructor(capacity = 1024) {
    let slots = LEAST_SIZE;
    while (slots * MAX_LOAD < capacity) slots *= 2;
    this.#digests = new Uint32Array(slots);
    this.#numbers = new Int32Array(slots).fill(EMPTY);
  }

  /** How many entries it holds. */
  get size(): number {
    return this.#size;
  }

  /** How many entries it has room for (slots, full or empty). */
  get slots(): number {
    return this.#numbers.length;
  }

  /** The first number filed under `digest` that `confirm` accepts, or undefined. */
  find(digest: number, confirm: (value: number) => boolean): number | undefined {
    const mask = this.#numbers.length - 1;
    for (let slot = digest & mask; ; slot = (slot + 1) & mask) {
      const value = this.#numbers[slot] ?? EMPTY;
      if (value === EMPTY) return undefined;
      if (this.#digests[slot] === digest >>> 0 && confirm(value)) return value;
    }
  }

  /** Files `value` under `digest` (the caller has made sure no entry means the same key). */
  add(digest: number, value: number): void {
    if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff)
      throw new TypeError(`DigestTable: ${value} is not a number it can hold`);
    if (this.#size + 1 > this.#numbers.length * MAX_LOAD) this.#grow();
    this.#place(digest >>> 0, value);
    this.#size += 1;
  }

  /** Takes out the entry of `value` under `digest`; false when there was none. */
  remove(digest: number, value: number): boolean {
    const mask = this.#numbers.length - 1;
    const check = digest >>> 0;
    for (let slot = check & mask; ; slot = (slot + 1) & mask) {
      const held = this.#numbers[slot] ?? EMPTY;
      if (held === EMPTY) return false;
      if (held === value && this.#digests[slot] === check) {
        this.#close(slot, mask);
        this.#size -= 1;
        return true;
      }
    }
  }

  #place(digest: number, value: number): void {
    const mask = this.#numbers.length - 1;
    let slot = digest & mask;
    while ((this.#numbers[slot] ?? EMPTY) !== EMPTY) slot = (slot + 1) & mask;
    this.#digests[slot] = digest;
    this.#numbers[slot] = value;
  }

  /** Empties `hole`, moving back each later entry of its run that may sit there (its home is not past the hole). */
  #close(hole: number, mask: number): void {
    let empty = hole;
    for (let next = (empty + 1) & mask; (this.#numbers[next] ?? EMPTY) !== EMPTY; next = (next + 1) & mask) {
      const home = (this.#digests[next] ?? 0) & mask;
      if (((next - home) & mask) >= ((next - empty) & mask)) {
        this.#digests[empty] = this.#digests[next] ?? 0;
        this.#numbers[empty] = this.#numbers[next] ?? EMPTY;
        empty = next;
      }
    }
    this.#numbers[empty] = EMPTY;
  }

  #grow(): void {
    const digests = this.#digests;
    const numbers = this.#numbers;
    this.#digests = new Uint32Array(numbers.length * 2);
    this.#numbers = new Int32Array(numbers.length * 2).fill(EMPTY);
    for (let slot = 0; slot < numbers.length; slot += 1) {
      const value = numbers[slot] ?? EMPTY;
      if (value !== EMPTY) this.#place(digests[slot] ?? 0, value);
    }
  }
}
