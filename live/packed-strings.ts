/**
 * A sorted or ordered list of strings written as one string and the length of each, so a
 * file of 8,192 terms or 2,048 product ids parses as one string and a list of small
 * numbers: JSON.parse then makes two values, not thousands of strings for the collector
 * to walk, and a lookup slices out only the items it reads (format 5 of the search index).
 */

/** How a list is written in a partition file: the items end to end, and each one's length. */
export interface PackedStringsFile {
  text: string;
  lengths: number[];
}

export function packStrings(list: readonly string[]): PackedStringsFile {
  return { text: list.join(''), lengths: list.map((item) => item.length) };
}

export class PackedStrings {
  private constructor(
    private readonly text: string,
    /** Where each item starts in `text`, and where the last ends; undefined when every item is `width` long. */
    private readonly starts: Uint32Array | undefined,
    private readonly width: number,
    readonly length: number,
  ) {}

  /** The list a file holds; a `TypeError` when its lengths do not add up to its text. */
  static read(file: unknown): PackedStrings {
    const { text, lengths } = (file ?? {}) as Partial<PackedStringsFile>;
    if (typeof text !== 'string' || !Array.isArray(lengths))
      throw new TypeError('not a packed list of strings');
    return PackedStrings.of(text, lengths);
  }

  /** The list of items of these lengths end to end in `text`; a `TypeError` when they do not add up to it. */
  static of(text: string, lengths: ArrayLike<unknown>): PackedStrings {
    const starts = new Uint32Array(lengths.length + 1);
    let end = 0;
    let same = true;
    for (let at = 0; at < lengths.length; at += 1) {
      const length = lengths[at];
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
        throw new TypeError(`item ${at} has no length`);
      }
      same &&= length === lengths[0];
      end += length;
      starts[at + 1] = end;
    }
    if (end !== text.length) throw new TypeError(`lengths of ${end} characters for a text of ${text.length}`);
    // Ids of one shape ("gid://shopify/Product/" and ten digits) need no table of starts.
    const width = (lengths[0] as number | undefined) ?? 0;
    return new PackedStrings(text, same ? undefined : starts, width, lengths.length);
  }

  /** About what the list holds in a JS heap: its text (one byte a character when Latin-1) and its starts. */
  get bytes(): number {
    return this.text.length + (this.starts?.byteLength ?? 0);
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    if (this.starts === undefined) return this.text.slice(index * this.width, (index + 1) * this.width);
    return this.text.slice(this.starts[index], this.starts[index + 1]);
  }

  /** The length of an item in code units, without slicing it out (0 past the end). */
  lengthAt(index: number): number {
    if (!(index >= 0 && index < this.length)) return 0;
    if (this.starts === undefined) return this.width;
    return (this.starts[index + 1] as number) - (this.starts[index] as number);
  }

  /**
   * The index after the last item that starts with `prefix` (the list ascending by code
   * unit: those items are one run, right after the items before `prefix`); the index of
   * the first item ≥ `prefix` when none does.
   */
  runEnd(prefix: string): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const item = this.at(middle) as string;
      if (item < prefix || item.startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first index whose item is ≥ `value` (the list ascending by code unit). */
  lowerBound(value: string): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.at(middle) as string) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
