/**
 * Cuts a document of per-product fragments into parts along runs of products, so that a
 * rebuild neither reads nor hashes the products of a part that did not change. Where a run
 * starts depends on the slugs and the products' order alone (`startsRun`), so a changed price
 * changes one run, and an added or removed product the run it falls in (rarely the next). The document's own bytes before the first product (its head, which
 * holds the build time) and after the last (its tail) are runs of their own.
 *
 * A run is named by what it is made of (`runKey`: its own bytes' SHA-256 and each product's
 * fragment key, which holds the product's digest). When the build cache knows how a run of
 * that name was cut, its parts are taken as they were, by length and SHA-256, and their
 * files are linked from the last bundle; only the runs whose name is new are read, and cut
 * where a part would pass `max` (at the start of a UTF-8 character, `cut-parts.ts`).
 */
import { createHash } from 'node:crypto';
import { fnv1a } from '../../live/fnv1a.js';
import type { PieceSequence } from '../document-pieces.js';
import type { ProductFragments, RunPart } from '../plan.js';
import { PartCutter, type PartSizes } from './cut-parts.js';

export type RunCache = Pick<ProductFragments, 'runParts' | 'keepRunParts' | 'runLength' | 'keepRunLength'>;

/** A part of the document, its bytes read only when asked. */
export interface RunCutPart extends RunPart {
  read(): Buffer;
  /** True when the part was taken from an earlier build's cut, its bytes not read. */
  readonly kept: boolean;
  /** False for the document's own bytes before its first product and after its last (its head and tail). */
  readonly ofProducts: boolean;
}

/** A run: the entries `from` (inclusive) to `to` (exclusive) of the document's sequence. */
export interface Run {
  readonly from: number;
  readonly to: number;
  /** How many of its entries are products. */
  readonly members: number;
}

/** Products sampled for the mean fragment size that sets the runs' length. */
const SAMPLE = 64;
/** At most 2^20 products a run: past that, a part is forced by size anyway. */
const MAX_LENGTH = 2 ** 20;

/**
 * FNV-1a of the slug, mixed by MurmurHash3's finaliser: FNV-1a alone gives slugs that differ
 * only at their end (`juice-0001`, `juice-0002`…) nearly the same top bits, and then runs
 * would not start where they should.
 */
function slugHash(slug: string): number {
  let hash = fnv1a(slug);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const HASHES = 2 ** 32;

/**
 * True when the product `slug`, `count` products into the current run, starts the next run:
 * FastCDC's normalised chunking at the level of products (Xia et al., USENIX ATC 2016): none
 * before a quarter of the runs' `length`, a rule four times harder than one in `length` until
 * `length`, four times easier after. Runs then hold close to `length` products, so a document
 * of 334 MiB is about 42 parts of about 8 MiB (few fetches a request on Cloudflare Free) and a
 * change rewrites about 8 MiB; with one rule throughout, run lengths spread geometrically, and
 * both more parts and larger rewrites followed.
 */
function startsRun(slug: string, count: number, length: number): boolean {
  if (count < length / 4) return false;
  const odds = count < length ? 1 / (4 * length) : Math.min(1, 4 / length);
  return slugHash(slug) < odds * HASHES;
}

/**
 * The document's pieces as runs: the bytes before the first product, then runs of products
 * (each with the bytes that come before its first product, a separator), then the bytes
 * after the last product. Each run is a range of the sequence, so the runs hold nothing of it.
 */
export function groupRuns(pieces: PieceSequence, length: number): Run[] {
  const runs: Run[] = [];
  // Where the current run of products starts, and how many products it holds so far.
  let from: number | undefined;
  let members = 0;
  // Where the bytes after the last product seen start.
  let pending = 0;
  for (let index = 0; index < pieces.length; index += 1) {
    if (!pieces.isElement(index)) continue;
    if (from === undefined) {
      // The head: the bytes before the first product, a run of its own.
      if (index > 0) runs.push({ from: 0, to: index, members: 0 });
      from = index;
    } else if (startsRun(pieces.slug(index), members, length)) {
      runs.push({ from, to: pending, members });
      from = pending;
      members = 0;
    }
    members += 1;
    pending = index + 1;
  }
  if (from !== undefined) runs.push({ from, to: pending, members });
  if (pending < pieces.length) runs.push({ from: pending, to: pieces.length, members: 0 });
  return runs;
}

/** The slugs of the run's products, in order. */
export function* runSlugs(pieces: PieceSequence, run: Run): Generator<string> {
  for (let index = run.from; index < run.to; index += 1)
    if (pieces.isElement(index)) yield pieces.slug(index);
}

/** What a run is made of; undefined when a product's fragment has no key (nothing caches it). */
export function runKey(
  document: string,
  sizes: PartSizes,
  pieces: PieceSequence,
  run: Run,
): string | undefined {
  const hash = createHash('sha256').update(`${document}\u0000${sizes.max}\n`);
  for (let index = run.from; index < run.to; index += 1) {
    if (!pieces.isElement(index)) {
      hash.update(`b ${createHash('sha256').update(pieces.bytes(index)).digest('hex')}\n`);
      continue;
    }
    const key = pieces.key(index);
    if (key === undefined) return undefined;
    hash.update(`e ${key}\n`);
  }
  return hash.digest('hex');
}

/**
 * The runs' length in products: about `sizes.avg` bytes a run, from the mean size of the
 * first products' fragments. The last build's choice is kept while it is within a quarter of
 * that, so the runs (and every part) do not move for a few bytes.
 */
export function chooseRunLength(
  pieces: PieceSequence,
  sizes: PartSizes,
  previous: number | undefined,
  read: (index: number) => Buffer = (index) => pieces.bytes(index),
): number {
  let bytes = 0;
  let count = 0;
  for (let index = 0; index < pieces.length && count < SAMPLE; index += 1) {
    if (!pieces.isElement(index)) continue;
    bytes += read(index).length;
    count += 1;
  }
  const mean = Math.max(1, count === 0 ? 1 : bytes / count);
  const ideal = Math.max(1, Math.min(MAX_LENGTH, Math.round(sizes.avg / mean)));
  if (previous !== undefined && previous >= ideal / 1.25 && previous <= ideal * 1.25) return previous;
  return ideal;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The run's bytes cut where a part would pass `max`, and nowhere else. A run is about
 * `sizes.avg` bytes, so it mostly fits one part: then it is its bytes joined once, which is
 * what the cutter would give, without the cutter's `max`-sized buffer (16 MiB allocated
 * and zeroed per run, the run copied into it and out again).
 */
function cutRun(run: Run, sizes: PartSizes, read: (index: number) => Buffer): RunCutPart[] {
  const ofProducts = run.members > 0;
  const chunks: Buffer[] = [];
  let length = 0;
  for (let index = run.from; index < run.to; index += 1) {
    const bytes = read(index);
    chunks.push(bytes);
    length += bytes.length;
    if (length > sizes.max) return cutLongRun(chunks, { ...run, from: index + 1 }, sizes, ofProducts, read);
  }
  return length === 0 ? [] : [cutPartOf(Buffer.concat(chunks, length), ofProducts)];
}

/** A run longer than `max`: its bytes read so far (`chunks`), then the `rest` of its entries, through the cutter. */
function cutLongRun(
  chunks: readonly Buffer[],
  rest: Run,
  sizes: PartSizes,
  ofProducts: boolean,
  read: (index: number) => Buffer,
): RunCutPart[] {
  const cutter = new PartCutter({ min: sizes.max, avg: sizes.max, max: sizes.max });
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) parts.push(...cutter.push(chunk));
  for (let index = rest.from; index < rest.to; index += 1) parts.push(...cutter.push(read(index)));
  parts.push(...cutter.end());
  return parts.map((part) => cutPartOf(part, ofProducts));
}

/** A part cut in this build from bytes it holds. */
export function cutPartOf(part: Uint8Array, ofProducts: boolean): RunCutPart {
  const bytes = Buffer.from(part.buffer, part.byteOffset, part.length);
  return { length: bytes.length, sha256: sha256Hex(bytes), read: () => bytes, kept: false, ofProducts };
}

/** Parts an earlier build cut from the same run: read again (the run, then sliced) only if asked. */
function keptParts(pieces: PieceSequence, run: Run, known: readonly RunPart[]): RunCutPart[] {
  let offset = 0;
  return known.map((part) => {
    const start = offset;
    offset += part.length;
    return {
      length: part.length,
      sha256: part.sha256,
      kept: true,
      ofProducts: run.members > 0,
      read: () => {
        const bytes = Buffer.concat([...pieces.chunks(run.from, run.to)]);
        return bytes.subarray(start, start + part.length);
      },
    };
  });
}

/** Every part of the document, in order, taken from the cache where the run is known. */
export function cutRunParts(
  document: string,
  pieces: PieceSequence,
  sizes: PartSizes,
  cache: RunCache,
): RunCutPart[] {
  return [...eachRunPart(document, pieces, sizes, cache)];
}

/**
 * The same, run by run as the runs are cut: a caller that stores each part as it comes
 * holds one run's bytes at a time, not the whole document's (334 MiB for the feed at 100,000).
 */
export function* eachRunPart(
  document: string,
  pieces: PieceSequence,
  sizes: PartSizes,
  cache: RunCache,
): Generator<RunCutPart> {
  // The fragments read to choose the runs' length are kept for their run's cut: read twice,
  // a fragment rendered on a cold build (not yet committed to the fragment file) was
  // rendered twice.
  const sampled = new Map<number, Buffer>();
  const sample = (index: number) => {
    const bytes = pieces.bytes(index);
    sampled.set(index, bytes);
    return bytes;
  };
  const read = (index: number) => {
    const bytes = sampled.get(index);
    if (bytes === undefined) return pieces.bytes(index);
    sampled.delete(index);
    return bytes;
  };
  const length = chooseRunLength(pieces, sizes, cache.runLength(document), sample);
  cache.keepRunLength(document, length);
  for (const run of groupRuns(pieces, length)) {
    const key = runKey(document, sizes, pieces, run);
    const known = key === undefined ? undefined : cache.runParts(key, runSlugs(pieces, run));
    if (known !== undefined) {
      yield* keptParts(pieces, run, known);
      continue;
    }
    const cut = cutRun(run, sizes, read);
    if (key !== undefined) cache.keepRunParts(key, cut);
    yield* cut;
  }
}
