/**
 * The content digest a bundle file is known by: SHA-256 of its bytes on disk (after gzip for
 * a `.gz` artifact), the same digest Netlify and Cloudflare Pages decide uploads by. The
 * build compares digests, not bytes, with the last bundle: holding the last bundle's bytes
 * in memory cost as much as the bundle itself (1.6 GB at 100,000 products).
 */
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Artifact } from '../artifact.js';
import { encodeArtifact } from '../bundle-file-encoding.js';

export type BundleDigests = Map<string, string>;

/** What identifies the content of a file on disk without reading it: its inode, size and modification time. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

function stampOf(stats: Stats): FileStamp {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

export function sameStamp(a: FileStamp | undefined, b: Stats): boolean {
  return a !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * The stamp of the file each digest of a read bundle was taken from. A writer that links an
 * unchanged file compares the link's stamp with it (the same inode, size and time: the bytes
 * the digest was read from) instead of reading the file through SHA-256 a second time.
 */
const stampsByDigests = new WeakMap<BundleDigests, Map<string, FileStamp>>();

export function stampOfDigest(digests: BundleDigests, path: string): FileStamp | undefined {
  return stampsByDigests.get(digests)?.get(path);
}

/**
 * Digests `file` into `digests` under `path`, and remembers its stamp when the file did not
 * change while it was read (the same stamp before and after).
 */
export async function digestInto(digests: BundleDigests, path: string, file: string): Promise<void> {
  const before = await stat(file);
  digests.set(path, await digestFile(file));
  const after = await stat(file);
  if (!sameStamp(stampOf(before), after)) return;
  let stamps = stampsByDigests.get(digests);
  if (stamps === undefined) {
    stamps = new Map();
    stampsByDigests.set(digests, stamps);
  }
  stamps.set(path, stampOf(after));
}

export function digestBytes(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The digest of the file an artifact becomes, and its bytes (encoded once, for the writer). */
export function digestArtifact(artifact: Pick<Artifact, 'body' | 'encoding'>): {
  digest: string;
  bytes: Buffer;
} {
  const bytes = encodeArtifact(artifact);
  return { digest: digestBytes(bytes), bytes };
}

/** Streams a file through SHA-256: a 300 MB document is never read whole. */
export async function digestFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** True when every artifact is in `digests` with the same content (and maybe other files too). */
export function holdsArtifacts(
  digests: BundleDigests,
  artifacts: readonly Pick<Artifact, 'path' | 'body' | 'encoding'>[],
): boolean {
  return artifacts.every((artifact) => digests.get(artifact.path) === digestArtifact(artifact).digest);
}

/** True when `digests` is exactly these artifacts' files. */
export function matchesArtifacts(
  digests: BundleDigests,
  artifacts: readonly Pick<Artifact, 'path' | 'body' | 'encoding'>[],
): boolean {
  return digests.size === artifacts.length && holdsArtifacts(digests, artifacts);
}
