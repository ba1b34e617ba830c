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
import { artifactBytes, knownDigestOf, knownTextDigestOf } from '../compact-artifact.js';

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

/** A file's digest with the stamp of the file it was read from: kept between builds (the build cache). */
export interface KnownFile extends FileStamp {
  digest: string;
  /** For a compressed (`.gz`) file: the SHA-256 of the text it was compressed from. */
  source?: string;
}

/** The SHA-256 of the text each compressed file of a bundle was made from, by path. */
const sourcesByDigests = new WeakMap<BundleDigests, Map<string, string>>();

/** Records that the compressed file `path` of `digests` was made from text of digest `source`. */
export function rememberSource(digests: BundleDigests, path: string, source: string): void {
  let sources = sourcesByDigests.get(digests);
  if (sources === undefined) {
    sources = new Map();
    sourcesByDigests.set(digests, sources);
  }
  sources.set(path, source);
}

function remember(digests: BundleDigests, path: string, stamp: FileStamp): void {
  let stamps = stampsByDigests.get(digests);
  if (stamps === undefined) {
    stamps = new Map();
    stampsByDigests.set(digests, stamps);
  }
  stamps.set(path, stamp);
}

/** Every digest of `digests` whose file's stamp is known, with it: what the next build may trust. */
export function knownFilesOf(digests: BundleDigests): Map<string, KnownFile> {
  const known = new Map<string, KnownFile>();
  const stamps = stampsByDigests.get(digests);
  const sources = sourcesByDigests.get(digests);
  for (const [path, digest] of digests) {
    const stamp = stamps?.get(path);
    const source = sources?.get(path);
    if (stamp !== undefined)
      known.set(path, { ...stamp, digest, ...(source !== undefined ? { source } : {}) });
  }
  return known;
}

/**
 * True when a file written now (its digest, and for a compressed file the digest of its
 * text) is the file `path` of `digests`: compared by the text when both know it, since a
 * compressed file is the same file whenever its text is.
 */
export function sameFileAs(
  digests: BundleDigests,
  path: string,
  written: { digest: string; source?: string | undefined },
): boolean {
  const source = sourceOfDigest(digests, path);
  return source !== undefined && written.source !== undefined
    ? written.source === source
    : digests.get(path) === written.digest;
}

/** How the files written now (path → digest, with the texts of compressed ones) differ from the bundle of `digests`. */
export function compareWithDigests(
  written: ReadonlyMap<string, string>,
  sources: ReadonlyMap<string, string>,
  digests: BundleDigests,
): { written: number; unchanged: number; removed: number } {
  let unchanged = 0;
  for (const [path, digest] of written)
    if (sameFileAs(digests, path, { digest, source: sources.get(path) })) unchanged += 1;
  let removed = 0;
  for (const path of digests.keys()) if (!written.has(path)) removed += 1;
  return { written: written.size - unchanged, unchanged, removed };
}

/**
 * Puts the digest of `file` into `digests`: taken from `known` when the file's stamp is the
 * one it was known by (the same inode, size and modification time: the same bytes, as git's
 * index and rsync assume), read through SHA-256 otherwise.
 */
export async function digestKnownInto(
  digests: BundleDigests,
  path: string,
  file: string,
  known: KnownFile | undefined,
): Promise<void> {
  if (known !== undefined && sameStamp(known, await stat(file))) {
    digests.set(path, known.digest);
    remember(digests, path, { ino: known.ino, size: known.size, mtimeMs: known.mtimeMs });
    if (known.source !== undefined) rememberSource(digests, path, known.source);
    return;
  }
  await digestInto(digests, path, file);
}

/** Records the stamp of `file` for `path` of `digests` (a file whose digest the writer knows). */
export async function stampInto(digests: BundleDigests, path: string, file: string): Promise<void> {
  remember(digests, path, stampOf(await stat(file)));
}

/**
 * Digests `file` into `digests` under `path`, and remembers its stamp when the file did not
 * change while it was read (the same stamp before and after).
 */
export async function digestInto(digests: BundleDigests, path: string, file: string): Promise<void> {
  const before = await stat(file);
  digests.set(path, await digestFile(file));
  const after = await stat(file);
  if (sameStamp(stampOf(before), after)) remember(digests, path, stampOf(after));
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

/** The SHA-256 of an artifact's text (before any compression), not read when it is known. */
export function digestArtifactText(artifact: Artifact): string {
  return knownTextDigestOf(artifact) ?? digestBytes(artifactBytes(artifact));
}

/** The digest of the file an artifact becomes, not read when it is known (a part kept from the last bundle). */
export function digestOfArtifact(artifact: Artifact): string {
  return knownDigestOf(artifact) ?? digestArtifact(artifact).digest;
}

/** True when every artifact is in `digests` with the same content (and maybe other files too). */
export function holdsArtifacts(digests: BundleDigests, artifacts: readonly Artifact[]): boolean {
  return artifacts.every((artifact) => digests.get(artifact.path) === digestOfArtifact(artifact));
}

/** True when `digests` is exactly these artifacts' files. */
export function matchesArtifacts(digests: BundleDigests, artifacts: readonly Artifact[]): boolean {
  return digests.size === artifacts.length && holdsArtifacts(digests, artifacts);
}

/** The text digest a compressed file of `digests` was made from, when known. */
export function sourceOfDigest(digests: BundleDigests, path: string): string | undefined {
  return sourcesByDigests.get(digests)?.get(path);
}
