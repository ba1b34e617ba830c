/**
 * A typed array that grows as it is appended to (doubling), for the search index's builder:
 * a column of a million numbers costs its element size each, not a JS array's 8 bytes plus
 * its spare room, and no object per item.
 */

type NumberArray = Uint8Array | Uint16Array | Uint32Array | Float64Array;

export class GrowableArray<T extends NumberArray> {
  private values: T;
  length = 0;

  /** `capacity`: how many values there will be, when known (no doubling, no spare room). */
  constructor(
    private readonly make: (length: number) => T,
    capacity = 16,
  ) {
    this.values = make(Math.max(1, capacity));
  }

  push(value: number): void {
    if (this.length === this.values.length) this.grow(this.length + 1);
    this.values[this.length] = value;
    this.length += 1;
  }

  at(index: number): number {
    return this.values[index] as number;
  }

  /** Adds `amount` to the value at `index` (an existing one). */
  add(index: number, amount: number): void {
    this.values[index] = (this.values[index] as number) + amount;
  }

  /** The values from `start` to `end` (a view: a later push may move them). */
  view(start: number, end: number): T {
    return this.values.subarray(start, Math.min(end, this.length)) as T;
  }

  /** The bytes held, spare room included. */
  get byteLength(): number {
    return this.values.byteLength;
  }

  /**
   * The values, in an array of exactly their length (the array itself when there is no
   * spare room, else a copy), and the list emptied: a builder that hands its columns on
   * keeps no second copy of them while it finishes the rest.
   */
  take(): T {
    const values =
      this.length === this.values.length ? this.values : (this.values.slice(0, this.length) as T);
    this.values = this.make(0);
    this.length = 0;
    return values;
  }

  private grow(least: number): void {
    const grown = this.make(Math.max(least, this.values.length * 2));
    grown.set(this.values);
    this.values = grown;
  }
}
