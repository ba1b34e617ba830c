/**
 * The content-defined cutter on a catalog-shaped text: the parts join back to the document,
 * stay within their bounds, do not depend on how the body was chunked, end on a UTF-8
 * character boundary, and a change to one product changes at most two parts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cutParts,
  cutPartsAsync,
  type PartSizes,
  partSizesAround,
} from '../../../generator/parts/cut-parts.js';

const SIZES: PartSizes = partSizesAround(4096);

/** A JSON catalog of `count` products, one line each, with some non-ASCII names. */
function catalogText(count: number, change?: { index: number; price: string }): Buffer {
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const price = change?.index === index ? change.price : `${(index % 97) + 1}.99`;
    lines.push(
      JSON.stringify({
        id: `p-${index}`,
        name: `Jus n°${index} — pressé à froid ${'é'.repeat(index % 7)}`,
        price,
        tags: ['juice', `batch-${index % 13}`],
      }),
    );
  }
  return Buffer.from(`{"products":[\n${lines.join(',\n')}\n]}\n`, 'utf8');
}

function digests(parts: readonly Uint8Array[]): string[] {
  return parts.map((part) => createHash('sha256').update(part).digest('hex'));
}

/** The body in chunks of `size` bytes. */
function* chunked(bytes: Buffer, size: number): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

describe('cutParts', () => {
  const text = catalogText(3000);
  const parts = [...cutParts([text], SIZES)];

  it('when the parts are joined then they are the document, byte for byte', () => {
    expect(parts.length).toBeGreaterThan(10);
    expect(Buffer.concat(parts).equals(text)).toBe(true);
  });

  it('when a document is cut then no part is longer than max, and only the last is shorter than min less a character', () => {
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(SIZES.max);
    for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(SIZES.min - 3);
  });

  it('when a part ends then the next byte starts a UTF-8 character, so every part is text', () => {
    for (const part of parts) expect(Buffer.from(part).toString('utf8')).not.toContain('\uFFFD');
  });

  it('when the body comes in other chunks, sync or async, then the cuts are the same', async () => {
    const odd = [...cutParts(chunked(text, 777), SIZES)];
    const tiny = [...cutParts(chunked(text, 1), SIZES)];
    async function* streamed() {
      yield* chunked(text, 5000);
    }
    const fromStream: Uint8Array[] = [];
    for await (const part of cutPartsAsync(streamed(), SIZES)) fromStream.push(part);
    expect(digests(odd)).toEqual(digests(parts));
    expect(digests(tiny)).toEqual(digests(parts));
    expect(digests(fromStream)).toEqual(digests(parts));
  });

  it('when one product changes then at most two parts change and every other part is kept', () => {
    for (const index of [0, 1234, 2999]) {
      const changed = [...cutParts([catalogText(3000, { index, price: '1234.50' })], SIZES)];
      const before = new Set(digests(parts));
      const fresh = digests(changed).filter((digest) => !before.has(digest));
      expect(fresh.length).toBeGreaterThanOrEqual(1);
      expect(fresh.length).toBeLessThanOrEqual(2);
    }
  });

  it('when a document is shorter than min then it is one part, and an empty body has none', () => {
    expect([...cutParts([Buffer.from('small')], SIZES)]).toHaveLength(1);
    expect([...cutParts([], SIZES)]).toHaveLength(0);
  });

  it('when the sizes are not ordered then it refuses them', () => {
    expect(() => [...cutParts([text], { min: 10, avg: 5, max: 20 })]).toThrow(TypeError);
  });
});
