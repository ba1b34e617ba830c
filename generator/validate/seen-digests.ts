/**
 * The 8-byte digests (`digestOf`) of the texts met so far, to say which text was met before
 * without keeping the texts: open addressing with linear probing over a BigUint64Array, a
 * power-of-two size grown by doubling past three quarters full, so 11 to 21 bytes a text,
 * where a Set of the texts cost about 60 (a feed's g:ids). Two different texts share a
 * digest with a chance of about n²/2⁶⁵ (`digests.ts`), so a hit is a candidate: whoever
 * says "met before" on it confirms against the real texts first. Digest 0 marks an empty
 * slot, so it is kept aside.
 */
const LEAST_SIZE = 1024;
const MAX_LOAD = 0.75;

export class SeenDigests {
  #slots = new BigUint64Array(LEAST_SIZE);
  #size = 0;
  #zero = false;

  /** Adds the digest; true when it was met before. */
  add(digest: bigint): boolean {
    if (digest === 0n) {
      const met = this.#zero;
      this.#zero = true;
      return met;
    }
    if (this.#size + 1 > this.#slots.length * MAX_LOAD) this.#grow();
    if (!this.#place(this.#slots, digest)) return true;
    this.#size += 1;
    return false;
  }

  /** Whether the digest was added; true may be another text's digest, as for `add`. */
  has(digest: bigint): boolean {
    if (digest === 0n) return this.#zero;
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = Number(BigInt.asUintN(32, digest)) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot] ?? 0n;
      if (held === digest) return true;
      if (held === 0n) return false;
    }
  }

  /** The bytes kept. */
  get byteLength(): number {
    return this.#slots.byteLength;
  }

  /** Puts the digest in its slot; false when it was there already. */
  #place(slots: BigUint64Array, digest: bigint): boolean {
    const mask = slots.length - 1;
    for (let slot = Number(BigInt.asUintN(32, digest)) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot] ?? 0n;
      if (held === digest) return false;
      if (held === 0n) {
        slots[slot] = digest;
        return true;
      }
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new BigUint64Array(old.length * 2);
    for (const digest of old) if (digest !== 0n) this.#place(this.#slots, digest);
  }
}
