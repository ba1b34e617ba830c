/**
 * Cuts a document of per-product fragments into parts along runs of products, so that a
 * rebuild neither reads nor hashes the products of a part that did not change. A run starts
 * at each product whose slug hashes to zero in its top `bits` bits: where runs start depends
 * on the slugs alone, so a changed price changes one run, and an added or removed product
 * the run it falls in. The document's own bytes before the first product (its head, which
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
import { type DocumentPiece, pieceBytes } from '../compact-artifact.js';
import type { ProductFragments, RunPart } from '../plan.js';
import { PartCutter, type PartSizes } from './cut-parts.js';

export type RunCache = Pick<ProductFragments, 'runParts' | 'keepRunParts' | 'runBits' | 'keepRunBits'>;

/** A part of the document, its bytes read only when asked. */
export interface RunCutPart extends RunPart {
  read(): Buffer;
  /** True when the part was taken from an earlier build's cut, its bytes not read. */
  readonly kept: boolean;
  /** False for the document's own bytes before its first product and after its last (its head and tail). */
  readonly ofProducts: boolean;
}

interface Run {
  pieces: DocumentPiece[];
  /** The slugs of the run's products. */
  members: string[];
}

/** Products sampled for the mean fragment size that sets the runs' length. */
const SAMPLE = 64;
/** At most 2^20 products a run: past that, a part is forced by size anyway. */
const MAX_BITS = 20;

function isElement(piece: DocumentPiece): piece is Exclude<DocumentPiece, Buffer> {
  return !Buffer.isBuffer(piece);
}

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

/** True when the product `slug` starts a run of products about 2^bits long. */
function startsRun(slug: string, bits: number): boolean {
  return bits === 0 || slugHash(slug) >>> (32 - bits) === 0;
}

/**
 * The document's pieces as runs: the bytes before the first product, then runs of products
 * (each with the bytes that come before its first product, a separator), then the bytes
 * after the last product.
 */
export function groupRuns(pieces: readonly DocumentPiece[], bits: number): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  let pending: Buffer[] = [];
  for (const piece of pieces) {
    if (!isElement(piece)) {
      pending.push(piece);
      continue;
    }
    if (current === undefined) {
      // The head: the bytes before the first product, a run of its own.
      if (pending.length > 0) runs.push({ pieces: pending, members: [] });
      current = { pieces: [], members: [] };
    } else if (startsRun(piece.slug, bits)) {
      runs.push(current);
      current = { pieces: [...pending], members: [] };
    } else current.pieces.push(...pending);
    pending = [];
    current.pieces.push(piece);
    current.members.push(piece.slug);
  }
  if (current !== undefined) runs.push(current);
  if (pending.length > 0) runs.push({ pieces: pending, members: [] });
  return runs;
}

/** What a run is made of; undefined when a product's fragment has no key (nothing caches it). */
export function runKey(document: string, sizes: PartSizes, run: Run): string | undefined {
  const hash = createHash('sha256').update(`${document}\u0000${sizes.max}\n`);
  for (const piece of run.pieces) {
    if (!isElement(piece)) hash.update(`b ${createHash('sha256').update(piece).digest('hex')}\n`);
    else if (piece.key === undefined) return undefined;
    else hash.update(`e ${piece.key}\n`);
  }
  return hash.digest('hex');
}

/**
 * The runs' length, as a power of two: about `sizes.avg` bytes a run, from the mean size of
 * the first products' fragments. The last build's choice is kept while it is within a
 * factor of two of that, so the runs (and every part) do not move for a few bytes.
 */
export function chooseRunBits(
  pieces: readonly DocumentPiece[],
  sizes: PartSizes,
  previous: number | undefined,
): number {
  let bytes = 0;
  let count = 0;
  for (const piece of pieces) {
    if (count >= SAMPLE) break;
    if (!isElement(piece)) continue;
    bytes += piece.read().length;
    count += 1;
  }
  const mean = Math.max(1, count === 0 ? 1 : bytes / count);
  const ideal = Math.log2(Math.max(1, sizes.avg / mean));
  if (previous !== undefined && Math.abs(ideal - previous) <= 1) return previous;
  return Math.max(0, Math.min(MAX_BITS, Math.round(ideal)));
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The run's bytes cut where a part would pass `max`, and nowhere else. */
function cutRun(run: Run, sizes: PartSizes): RunCutPart[] {
  const cutter = new PartCutter({ min: sizes.max, avg: sizes.max, max: sizes.max });
  const parts: Uint8Array[] = [];
  for (const piece of run.pieces) parts.push(...cutter.push(pieceBytes(piece)));
  parts.push(...cutter.end());
  return parts.map((part) => {
    const bytes = Buffer.from(part.buffer, part.byteOffset, part.length);
    return {
      length: bytes.length,
      sha256: sha256Hex(bytes),
      read: () => bytes,
      kept: false,
      ofProducts: run.members.length > 0,
    };
  });
}

/** Parts an earlier build cut from the same run: read again (the run, then sliced) only if asked. */
function keptParts(run: Run, known: readonly RunPart[]): RunCutPart[] {
  let offset = 0;
  return known.map((part) => {
    const start = offset;
    offset += part.length;
    return {
      length: part.length,
      sha256: part.sha256,
      kept: true,
      ofProducts: run.members.length > 0,
      read: () => {
        const bytes = Buffer.concat(run.pieces.map(pieceBytes));
        return bytes.subarray(start, start + part.length);
      },
    };
  });
}

/** Every part of the document, in order, taken from the cache where the run is known. */
export function cutRunParts(
  document: string,
  pieces: readonly DocumentPiece[],
  sizes: PartSizes,
  cache: RunCache,
): RunCutPart[] {
  const bits = chooseRunBits(pieces, sizes, cache.runBits(document));
  cache.keepRunBits(document, bits);
  const parts: RunCutPart[] = [];
  for (const run of groupRuns(pieces, bits)) {
    const key = runKey(document, sizes, run);
    const known = key === undefined ? undefined : cache.runParts(key, run.members);
    if (known !== undefined) {
      parts.push(...keptParts(run, known));
      continue;
    }
    const cut = cutRun(run, sizes);
    if (key !== undefined) cache.keepRunParts(key, cut);
    parts.push(...cut);
  }
  return parts;
}
