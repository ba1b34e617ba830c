/**
 * The content digest a bundle file is known by: SHA-256 of its bytes on disk (after gzip for
 * a `.gz` artifact), the same digest Netlify and Cloudflare Pages decide uploads by. The
 * build compares digests, not bytes, with the last bundle: holding the last bundle's bytes
 * in memory cost as much as the bundle itself (1.6 GB at 100,000 products).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Artifact } from '../artifact.js';
import { encodeArtifact } from '../bundle-file-encoding.js';

export type BundleDigests = Map<string, string>;

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
