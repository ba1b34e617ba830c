/**
 * The normaliser's digest table (digest-table.ts): numbers filed under 32 bits of a key's
 * digest, found again through a confirmation, grown past three quarters full, and taken out
 * without losing the entries filed after them. Digests are given here as the numbers they
 * are, so two keys sharing one (which SHA-256 never gives a test) are made on purpose.
 */
import { describe, expect, it } from 'vitest';
import { DigestTable, keyDigest } from '../../../generator/normalise/digest-table.js';

const any = () => true;

describe('the digest table', () => {
  it('when a digest was filed then its number is found, and a digest never filed is a miss', () => {
    const table = new DigestTable();
    table.add(keyDigest('7000001'), 0);
    table.add(keyDigest('7000002'), 1);
    expect(table.find(keyDigest('7000002'), any)).toBe(1);
    expect(table.find(keyDigest('7000001'), any)).toBe(0);
    expect(table.find(keyDigest('7000003'), any)).toBeUndefined();
    expect(table.size).toBe(2);
  });

  it('when two keys share a digest then the confirmation tells their numbers apart', () => {
    const table = new DigestTable();
    const names = ['apple', 'pear'];
    table.add(42, 0);
    table.add(42, 1);
    const numberOf = (name: string) => table.find(42, (value) => names[value] === name);
    expect(numberOf('apple')).toBe(0);
    expect(numberOf('pear')).toBe(1);
    expect(numberOf('plum')).toBeUndefined();
  });

  it('when it fills past three quarters then it grows and still finds every number', () => {
    const table = new DigestTable(16);
    const first = table.slots;
    const count = 5_000;
    for (let index = 0; index < count; index += 1) table.add(keyDigest(`id-${index}`), index);
    expect(table.slots).toBeGreaterThan(first);
    expect(table.size).toBe(count);
    expect(table.slots * 0.75).toBeGreaterThanOrEqual(count);
    for (let index = 0; index < count; index += 1)
      expect(table.find(keyDigest(`id-${index}`), (value) => value === index)).toBe(index);
    expect(table.find(keyDigest(`id-${count}`), any)).toBeUndefined();
  });

  it('when an entry is taken out of a run then the entries filed after it are still found', () => {
    const table = new DigestTable(8);
    // Digests 1, 17 and 33 share a home slot in 16 slots: one run of three, then 2 after it.
    for (const [value, digest] of [1, 17, 33, 2].entries()) table.add(digest, value);
    expect(table.remove(17, 1)).toBe(true);
    expect(table.remove(17, 1)).toBe(false);
    expect(table.find(17, any)).toBeUndefined();
    expect(table.find(1, any)).toBe(0);
    expect(table.find(33, any)).toBe(2);
    expect(table.find(2, any)).toBe(3);
    expect(table.size).toBe(3);
  });

  it('when a digest holds two numbers then taking one out keeps the other', () => {
    const table = new DigestTable();
    table.add(9, 4);
    table.add(9, 5);
    expect(table.remove(9, 4)).toBe(true);
    expect(table.find(9, any)).toBe(5);
  });

  it('when asked to hold what is not a whole number of 31 bits then it refuses', () => {
    const table = new DigestTable();
    expect(() => table.add(1, -1)).toThrow(TypeError);
    expect(() => table.add(1, 1.5)).toThrow(TypeError);
    expect(() => table.add(1, 2 ** 31)).toThrow(TypeError);
  });
});
