import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../generator/validate/digests.js';
import { SeenDigests } from '../../../generator/validate/seen-digests.js';

describe('SeenDigests', () => {
  it('when texts are added then each is met once, and has() answers for every one after the table grew', () => {
    const seen = new SeenDigests();
    const texts = Array.from({ length: 5_000 }, (_, index) => `product-${index}`);
    for (const text of texts) expect(seen.add(digestOf(text))).toBe(false);
    for (const text of texts) {
      expect(seen.has(digestOf(text))).toBe(true);
      expect(seen.add(digestOf(text))).toBe(true);
    }
    for (let index = 5_000; index < 10_000; index += 1)
      expect(seen.has(digestOf(`product-${index}`))).toBe(false);
    // Grown past its first 1,024 slots, at most three quarters full.
    expect(seen.byteLength).toBeGreaterThanOrEqual((5_000 / 0.75) * 8);
  });

  it('when the digest is 0 (the empty slot’s mark) then it is kept aside and still answered', () => {
    const seen = new SeenDigests();
    expect(seen.has(0n)).toBe(false);
    expect(seen.add(0n)).toBe(false);
    expect(seen.has(0n)).toBe(true);
    expect(seen.add(0n)).toBe(true);
    expect(seen.has(1n)).toBe(false);
  });
});
