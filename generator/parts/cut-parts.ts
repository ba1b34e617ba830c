/**
 * Cuts a document's bytes into parts at content-defined points, so that a change in one
 * product moves the cut points of only the part it falls in (and at most the next): every
 * other part keeps its bytes, and so its file. The cut test is FastCDC's (Xia et al., "FastCDC:
 * a Fast and Efficient Content-Defined Chunking Approach for Data Deduplication", USENIX ATC
 * 2016): a gear hash rolled over the bytes, no cut before `min`, a harder mask before `avg`
 * and an easier one after it (normalised chunking, so sizes gather near `avg`), and a forced
 * cut at `max`. A cut is moved back to the start of a UTF-8 character, so every part of a
 * text document is text itself.
 *
 * The body comes as byte chunks (an iterable, sync or async), because emitters will write
 * their documents as streams; memory is one part at most beside the chunk being read.
 */
import { createHash } from 'node:crypto';

export interface PartSizes {
  /** No cut before this many bytes (except the document's end). */
  min: number;
  /** The sizes gather here; a power of two is used (the nearest). */
  avg: number;
  /** A cut is forced here: no part is longer. */
  max: number;
}

const MIB = 1024 * 1024;

/**
 * At most 16 MiB a part: under the lowest per-file limit of any host (Netlify's function
 * streams 20 MB, Cloudflare Pages serves 25 MiB a file), and 8 MiB on average, so a
 * 3.3 GB `feed.xml` (1,000,000 products) is about 380 parts, under the 1,000 fetches of its
 * assets binding Cloudflare Free allows a request (docs/hosting.md).
 */
export const DEFAULT_PART_SIZES: PartSizes = { min: 2 * MIB, avg: 8 * MIB, max: 16 * MIB };

/**
 * Sizes around an average: a quarter of it at least, twice it at most (the default's
 * proportions). Tests lower the average so a small catalog has several parts.
 */
export function partSizesAround(avg: number): PartSizes {
  return { min: Math.max(1, Math.floor(avg / 4)), avg, max: avg * 2 };
}

/** 256 pseudo-random 32-bit values, the same on every run: SHA-256 of a fixed label. */
const GEAR: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    table[index] = createHash('sha256').update(`agent-catalog gear ${index}`).digest().readUInt32BE(0);
  }
  return table;
})();

/** The same table as signed 32-bit words, for the cutter's int32 arithmetic. */
const GEAR_INT = new Int32Array(GEAR.buffer);

/** `bits` one-bits at the top of a 32-bit word: the bits that depend on the last 32 bytes rolled. */
function topMask(bits: number): number {
  const clamped = Math.max(1, Math.min(31, bits));
  return ((2 ** clamped - 1) * 2 ** (32 - clamped)) >>> 0;
}

export function checkPartSizes(sizes: PartSizes): void {
  const { min, avg, max } = sizes;
  const ok = [min, avg, max].every((n) => Number.isSafeInteger(n) && n > 0) && min <= avg && avg <= max;
  if (!ok || max < 8) {
    throw new TypeError(
      `part sizes must be whole numbers with 0 < min <= avg <= max (max >= 8): ${JSON.stringify(sizes)}`,
    );
  }
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The incremental cutter: `push` chunks, take the finished parts, `end` for the last one. */
export class PartCutter {
  readonly #sizes: PartSizes;
  readonly #maskHard: number;
  readonly #maskEasy: number;
  /** `max` bytes plus room to look at the byte after a forced cut. */
  readonly #buffer: Uint8Array;
  #filled = 0;
  #scanned = 0;
  #hash = 0;

  constructor(sizes: PartSizes = DEFAULT_PART_SIZES) {
    checkPartSizes(sizes);
    this.#sizes = sizes;
    const bits = Math.round(Math.log2(sizes.avg));
    this.#maskHard = topMask(bits + 2) | 0;
    this.#maskEasy = topMask(bits - 2) | 0;
    this.#buffer = new Uint8Array(sizes.max + 4);
  }

  push(chunk: Uint8Array): Uint8Array[] {
    const parts: Uint8Array[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(chunk.length - offset, this.#buffer.length - this.#filled);
      this.#buffer.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      for (let cut = this.#findCut(); cut !== undefined; cut = this.#findCut()) parts.push(this.#take(cut));
    }
    return parts;
  }

  end(): Uint8Array[] {
    return this.#filled === 0 ? [] : [this.#take(this.#filled)];
  }

  /** The next cut in the buffered bytes, or undefined until more bytes come. */
  #findCut(): number | undefined {
    const { min, avg, max } = this.#sizes;
    const buffer = this.#buffer;
    const gear = GEAR_INT;
    // A cut at `i + 1` needs the byte there to be known (a character may continue into it).
    const last = Math.min(this.#filled - 1, max);
    // Int32 arithmetic throughout (`| 0`): the same bits as the unsigned hash, but V8 keeps
    // the values small integers instead of boxing every hash above 2^31 as a double.
    let hash = this.#hash | 0;
    let index = Math.max(this.#scanned, min - 1);
    // Before `avg` the harder mask, from there the easier one (FastCDC's normalised chunking).
    for (const [end, mask] of [
      [Math.min(last, avg - 1), this.#maskHard],
      [last, this.#maskEasy],
    ] as const) {
      for (; index < end; index += 1) {
        hash = ((hash << 1) + (gear[buffer[index] as number] as number)) | 0;
        if ((hash & mask) === 0 || index + 1 >= max) {
          this.#hash = 0;
          return this.#characterStart(index + 1);
        }
      }
    }
    this.#hash = hash;
    this.#scanned = Math.max(this.#scanned, last);
    return undefined;
  }

  /** `cut` moved back to the first byte of the UTF-8 character it falls in (never to 0). */
  #characterStart(cut: number): number {
    let start = cut;
    while (start > 1 && isContinuationByte(this.#buffer[start])) start -= 1;
    return start;
  }

  #take(cut: number): Uint8Array {
    const part = this.#buffer.slice(0, cut);
    this.#buffer.copyWithin(0, cut, this.#filled);
    this.#filled -= cut;
    this.#scanned = 0;
    this.#hash = 0;
    return part;
  }
}

/** Every part of a body given as byte chunks. */
export function* cutParts(
  chunks: Iterable<Uint8Array>,
  sizes: PartSizes = DEFAULT_PART_SIZES,
): Generator<Uint8Array> {
  const cutter = new PartCutter(sizes);
  for (const chunk of chunks) yield* cutter.push(chunk);
  yield* cutter.end();
}

/** The same for a streamed body (an emitter's `ReadableStream` or a file stream). */
export async function* cutPartsAsync(
  chunks: AsyncIterable<Uint8Array>,
  sizes: PartSizes = DEFAULT_PART_SIZES,
): AsyncGenerator<Uint8Array> {
  const cutter = new PartCutter(sizes);
  for await (const chunk of chunks) yield* cutter.push(chunk);
  yield* cutter.end();
}
