/**
 * Fixed-size digests of the catalog's strings, kept in typed arrays instead of the strings
 * themselves: a product's URL, slug or price as 8 bytes of its SHA-256. At 8 bytes two
 * different strings of one catalog share a digest with a chance of about n²/2⁶⁵, which is
 * negligible; where a digest repeats, the gate confirms with the real strings before it says so.
 */
import { hash } from 'node:crypto';

/** The one-shot `hash` (Node 20.12 on): a `createHash` object per digest cost the gate a third more CPU. */
export function digestOf(text: string): bigint {
  return hash('sha256', text, 'buffer').readBigUInt64BE(0);
}

type Values = Uint32Array | BigUint64Array;

/** A column of numbers or digests that grows as the catalog is read, one entry per product. */
class Column<A extends Values> {
  #values: A;
  length = 0;

  constructor(private readonly make: (size: number) => A) {
    this.#values = make(0);
  }

  push(value: A[number]): void {
    if (this.length === this.#values.length) {
      const next = this.make(Math.max(16, this.#values.length * 2));
      next.set(this.#values as never);
      this.#values = next;
    }
    this.#values[this.length] = value;
    this.length += 1;
  }

  /**
   * The values read. The spare capacity is let go by a copy only when it is more than an
   * eighth of the array: copying a nearly full column held it twice at once, and the gate
   * finishes a dozen of them together (a million products fill 95% of a 2²⁰ column).
   * Pushes after `finish` write past the returned view, never into it.
   */
  finish(): A {
    const values = this.#values;
    if (values.length - this.length <= values.length / 8) return values.subarray(0, this.length) as A;
    return values.slice(0, this.length) as A;
  }
}

export class NumberColumn extends Column<Uint32Array> {
  constructor() {
    super((size) => new Uint32Array(size));
  }
}

export class DigestColumn extends Column<BigUint64Array> {
  constructor() {
    super((size) => new BigUint64Array(size));
  }
}

/**
 * Digests sorted with the place each came from (`owners`), looked up by binary search. Equal
 * digests keep their places in ascending order, so the first and last of a run are the
 * first and last product that had it.
 */
export class SortedDigests {
  readonly digests: BigUint64Array;
  readonly owners: Uint32Array;

  constructor(digests: BigUint64Array, owners: Uint32Array) {
    const order = Uint32Array.from(owners.keys()).sort((a, b) => {
      const x = digests[a] ?? 0n;
      const y = digests[b] ?? 0n;
      return x < y ? -1 : x > y ? 1 : (owners[a] ?? 0) - (owners[b] ?? 0);
    });
    this.digests = new BigUint64Array(order.length);
    this.owners = new Uint32Array(order.length);
    for (const [at, from] of order.entries()) {
      this.digests[at] = digests[from] ?? 0n;
      this.owners[at] = owners[from] ?? 0;
    }
  }

  /** The first place in sorted order holding `digest`, or -1. */
  find(digest: bigint): number {
    let low = 0;
    let high = this.digests.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.digests[middle] ?? 0n) < digest) low = middle + 1;
      else high = middle;
    }
    return this.digests[low] === digest ? low : -1;
  }
}

/** The digests held more than once in a column. */
export function repeatedDigests(digests: BigUint64Array): Set<bigint> {
  const sorted = digests.slice().sort();
  const found = new Set<bigint>();
  for (let at = 1; at < sorted.length; at += 1) {
    const digest = sorted[at] ?? 0n;
    if (digest === sorted[at - 1]) found.add(digest);
  }
  return found;
}
