/**
 * How a bundle file's bytes become the text the gate reads: UTF-8, after gunzip for the
 * `.gz` files (Artifact.encoding `gzip`). One rule for every reader of a bundle (publish's
 * read-back, `check` on a directory and on a live site), so a compressed feed is judged on
 * exactly what it holds. Decompression is bounded: a `.gz` from a live site is untrusted.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Artifact } from './artifact.js';
import { artifactBytes } from './compact-artifact.js';

/** Far above a shard's text (10,000 rows of a few kilobytes), and far below what would exhaust memory. */
export const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;

export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}

/**
 * Compressed bytes by artifact, kept with the bytes they were made from: the host check, the
 * digest and the writer all ask, and gzip runs once. A body changed since (a new buffer)
 * is compressed afresh.
 */
const compressed = new WeakMap<object, { from: Buffer; bytes: Buffer }>();

/** The bytes of an artifact's file: its body, compressed when the artifact says so. */
export function encodeArtifact(artifact: Pick<Artifact, 'body' | 'encoding'>): Buffer {
  const source = artifactBytes(artifact);
  if (artifact.encoding !== 'gzip') return source;
  const known = compressed.get(artifact);
  if (known?.from === source) return known.bytes;
  // Level 9 and no file name or time in the header: the same text always gives the same bytes.
  const bytes = gzipSync(source, { level: 9 });
  compressed.set(artifact, { from: source, bytes });
  return bytes;
}

/**
 * The text of one bundle file, gunzipped first when its name ends in `.gz`. A `.gz` that
 * does not decompress (corrupt, or past the bound) reads as empty text: the checker of its
 * document then reports it (a shard's rows and digest no longer match its manifest).
 */
export function decodeBundleFile(path: string, bytes: Buffer): string {
  return decodedBundleBytes(path, bytes).toString('utf8');
}

/** The UTF-8 bytes of one bundle file's text: `decodeBundleFile` before decoding. */
export function decodedBundleBytes(path: string, bytes: Buffer): Buffer {
  if (!isGzipPath(path)) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
  } catch {
    return Buffer.alloc(0);
  }
}
