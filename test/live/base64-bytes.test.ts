/**
 * The search index's base64: Node's native encoder (what the generator uses) writes the
 * text `btoa` writes (what a Worker would use), for views into a larger buffer too, and
 * `base64ToBytes` reads it back.
 */
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../live/base64-bytes.js';
import { seeded } from './varied-catalog.js';

describe('bytesToBase64', () => {
  it('writes what btoa writes, for every length of padding and for views at an offset', () => {
    const random = seeded(64);
    const pool = Uint8Array.from({ length: 70_000 }, () => Math.floor(random() * 256));
    const views = [
      ...Array.from({ length: 40 }, (_, length) => pool.subarray(length, 2 * length)),
      pool.subarray(3, 3 + 65_537),
      pool,
      new Uint8Array(0),
    ];
    for (const bytes of views) {
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      const text = bytesToBase64(bytes);
      expect(text).toBe(btoa(binary));
      expect(base64ToBytes(text)).toEqual(Uint8Array.from(bytes));
    }
  });
});
