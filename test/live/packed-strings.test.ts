/**
 * The packed lists of strings the search index's files hold (a partition's terms, the
 * vocabulary, a block's ids): read back item for item, searched in order, and refused
 * when the lengths and the text disagree.
 */
import { describe, expect, it } from 'vitest';
import { PackedStrings, packStrings } from '../../live/packed-strings.js';

describe('a packed list of strings', () => {
  // Sorted by code unit, as the vocabulary is.
  const list = ['', 'açaí', 'apple', 'apple pie', 'gid://shopify/Product/1', '🍍 pineapple', 'zest'].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );

  it('reads back every item, empty and non-ASCII ones included, after a JSON round trip', () => {
    const packed = PackedStrings.read(JSON.parse(JSON.stringify(packStrings(list))));
    expect(packed.length).toBe(list.length);
    expect(Array.from({ length: packed.length }, (_, at) => packed.at(at))).toEqual(list);
    expect(packed.at(-1)).toBeUndefined();
    expect(packed.at(list.length)).toBeUndefined();
  });

  it('reads back a list whose items are all one length, as ids of one shape are', () => {
    const ids = ['gid://p/1001', 'gid://p/1002', 'gid://p/1003'];
    const packed = PackedStrings.read(packStrings(ids));
    expect(Array.from({ length: 4 }, (_, at) => packed.at(at))).toEqual([...ids, undefined]);
    expect(packed.lowerBound('gid://p/1002')).toBe(1);
  });

  it('finds where a value belongs in a sorted list, as a binary search over an array does', () => {
    const packed = PackedStrings.read(packStrings(list));
    for (const value of ['', 'a', 'apple', 'apples', 'b', 'zest', 'zz', '🍍']) {
      const expected = list.findIndex((item) => item >= value);
      expect(packed.lowerBound(value)).toBe(expected < 0 ? list.length : expected);
    }
  });

  it('finds where the run of items with a prefix ends, and the length of each without slicing it', () => {
    const sorted = ['ap', 'apple', 'apple pie', 'applesauce', 'apricot', 'b', 'bap'];
    const packed = PackedStrings.read(packStrings(sorted));
    for (const prefix of ['', 'a', 'ap', 'app', 'apple', 'apples', 'apz', 'b', 'c', '0']) {
      const after = sorted.findLastIndex((item) => item < prefix || item.startsWith(prefix)) + 1;
      expect({ prefix, end: packed.runEnd(prefix) }).toEqual({ prefix, end: after });
    }
    expect(Array.from({ length: packed.length + 1 }, (_, at) => packed.lengthAt(at))).toEqual([
      ...sorted.map((item) => item.length),
      0,
    ]);
    expect(PackedStrings.read(packStrings(['ab', 'cd'])).lengthAt(1)).toBe(2);
  });

  it('is refused when its lengths do not add up to its text, or are not counts', () => {
    expect(() => PackedStrings.read({ text: 'abc', lengths: [1, 1] })).toThrow(TypeError);
    expect(() => PackedStrings.read({ text: 'abc', lengths: [1, 1, 2] })).toThrow(TypeError);
    expect(() => PackedStrings.read({ text: 'abc', lengths: [1, -1, 3] })).toThrow(TypeError);
    expect(() => PackedStrings.read({ text: 'abc', lengths: [1.5, 1.5] })).toThrow(TypeError);
    expect(() => PackedStrings.read(['abc'])).toThrow(TypeError);
    expect(() => PackedStrings.read(null)).toThrow(TypeError);
  });
});
