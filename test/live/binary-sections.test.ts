/**
 * The typed sections of the search index's `.bin` files (format 6): written and read back
 * the same wherever the bytes sit in a buffer, and a file cut short or with bytes to spare
 * is refused with the section named. A price partition's range ends, found from its marks
 * and a short walk of the price steps, are the ones a walk from its start finds.
 */
import { describe, expect, it } from 'vitest';
import { SectionReader, SectionWriter } from '../../live/binary-sections.js';
import { ByteWriter } from '../../live/byte-writer.js';
import { decodePrices } from '../../live/search-partition-decode.js';
import { pricePartitionBytes } from '../../live/search-partition-format.js';

describe('the sections of a file', () => {
  const written = new SectionWriter()
    .uint32s([3, 0xffffffff])
    .float64s([-Infinity, 12.5])
    .bytes(new Uint8Array([7, 8, 9]))
    .finish();

  it('reads back what was written, in order', () => {
    const file = new SectionReader(written);
    expect(Array.from(file.uint32s(2, 'header'))).toEqual([3, 0xffffffff]);
    expect(Array.from(file.float64s(2, 'values'))).toEqual([-Infinity, 12.5]);
    expect(Array.from(file.rest())).toEqual([7, 8, 9]);
    expect(() => file.end()).not.toThrow();
  });

  it('reads the same from bytes that do not start on a word boundary', () => {
    const shifted = new Uint8Array(written.length + 1);
    shifted.set(written, 1);
    const file = new SectionReader(shifted.subarray(1));
    expect(Array.from(file.uint32s(2, 'header'))).toEqual([3, 0xffffffff]);
    expect(Array.from(file.float64s(2, 'values'))).toEqual([-Infinity, 12.5]);
  });

  it('refuses a file cut short, naming the section it ends in', () => {
    const file = new SectionReader(written.subarray(0, 12));
    file.uint32s(2, 'header');
    expect(() => file.float64s(2, 'values')).toThrow(/ends inside its values/);
  });

  it('refuses a file with bytes past its last section', () => {
    const file = new SectionReader(written);
    file.uint32s(2, 'header');
    file.float64s(2, 'values');
    file.take(2, 'bytes');
    expect(() => file.end()).toThrow(/1 bytes past/);
  });

  it('refuses to write a number that is not a 32-bit unsigned integer', () => {
    expect(() => new SectionWriter().uint32s([2 ** 32])).toThrow(/not a 32-bit/);
    expect(() => new SectionWriter().uint32s([-1])).toThrow(/not a 32-bit/);
  });
});

describe("a price partition's range", () => {
  // 1,000 entries, prices ascending with repeats (steps of 0 to 3), so a range's ends fall
  // between marks, on them and inside runs of one price.
  const prices = Array.from(
    { length: 1_000 },
    (_, at) => 250 + Math.floor((at * 7) / 5) - (at % 3 === 0 ? 1 : 0),
  );
  prices.sort((a, b) => a - b);
  const steps = new ByteWriter();
  prices.forEach((price, at) => {
    steps.varint(at === 0 ? 0 : price - (prices[at - 1] as number));
  });
  const entries = Uint32Array.from(prices, (_, at) => at * 2);
  const { value: partition } = decodePrices(
    pricePartitionBytes({ first: prices[0] as number, entries, steps: steps.written() }),
    1_000,
  );
  /** The answer of a walk from the start: the first price ≥ min, the first > max. */
  const walked = (min: number, max: number): [number, number] => {
    const start = prices.findIndex((price) => price >= min);
    const end = prices.findIndex((price) => price > max);
    const from = start < 0 ? prices.length : start;
    return [from, Math.max(from, end < 0 ? prices.length : end)];
  };

  it('is the run a walk from its start finds, for ranges across, inside and outside it', () => {
    const first = prices[0] as number;
    const last = prices[prices.length - 1] as number;
    for (let min = first - 3; min <= last + 3; min += 7) {
      for (const width of [0, 1, 5, 64, 300, 5_000]) {
        expect(partition.within(min, min + width), `${min}…${min + width}`).toEqual(walked(min, min + width));
      }
    }
  });

  it('refuses a partition whose steps run past its entries', () => {
    const extra = new ByteWriter();
    for (let at = 0; at <= entries.length; at += 1) extra.varint(1);
    expect(() =>
      decodePrices(pricePartitionBytes({ first: 100, entries, steps: extra.written() }), 1_000),
    ).toThrow(/past the 1000 entries/);
  });
});
