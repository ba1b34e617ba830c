/**
 * One product's rows of the OpenAI feed as the build cache keeps them: a header line of
 * numbers (the row count, then each JSON line's length in bytes, then each CSV line's),
 * then the JSON lines, then the CSV lines. A shard takes any run of a product's rows by
 * slicing these bytes, with no parsing and no copy: the rows of 100,000 products read back
 * as JSON and parsed again cost more than the rest of the feed.
 */

/** A product's rows, each as its JSON line and its CSV line (each ending in a line feed). */
export type RenderedRow = readonly [json: string, csv: string];

/** The fragment's text for `rows`. */
export function encodeProductRows(rows: readonly RenderedRow[]): string {
  const lengths = [
    rows.length,
    ...rows.map(([json]) => Buffer.byteLength(json, 'utf8')),
    ...rows.map(([, csv]) => Buffer.byteLength(csv, 'utf8')),
  ];
  return `${lengths.join(' ')}\n${rows.map(([json]) => json).join('')}${rows.map(([, csv]) => csv).join('')}`;
}

export interface ProductRows {
  readonly count: number;
  /** The JSON lines of rows `from` (inclusive) to `to` (exclusive), as one slice of the fragment. */
  json(from: number, to: number): Buffer;
  /** The CSV lines of the same rows. */
  csv(from: number, to: number): Buffer;
}

/** Where each line starts in `bytes`: `lengths` laid end to end from `start`, and where the last one ends. */
function offsetsOf(lengths: readonly number[], start: number): number[] {
  const offsets = [start];
  for (const length of lengths) offsets.push((offsets.at(-1) ?? start) + length);
  return offsets;
}

/** The rows of a fragment `encodeProductRows` wrote; a TypeError for bytes it did not write. */
export function decodeProductRows(bytes: Buffer): ProductRows {
  const end = bytes.indexOf(0x0a);
  const numbers = end < 0 ? [] : bytes.toString('latin1', 0, end).split(' ').map(Number);
  const count = numbers[0] ?? Number.NaN;
  const lengths = numbers.slice(1);
  if (
    !Number.isSafeInteger(count) ||
    lengths.length !== 2 * count ||
    !lengths.every((length) => Number.isSafeInteger(length) && length >= 0)
  ) {
    throw new TypeError('decodeProductRows: not an OpenAI rows fragment');
  }
  const json = offsetsOf(lengths.slice(0, count), end + 1);
  const csv = offsetsOf(lengths.slice(count), json[count] ?? end + 1);
  if (csv[count] !== bytes.length) throw new TypeError('decodeProductRows: the lengths do not add up');
  const slice = (offsets: readonly number[]) => (from: number, to: number) => {
    if (!(from >= 0 && from <= to && to <= count))
      throw new RangeError(`decodeProductRows: rows ${from} to ${to} of ${count}`);
    return bytes.subarray(offsets[from], offsets[to]);
  };
  return { count, json: slice(json), csv: slice(csv) };
}
