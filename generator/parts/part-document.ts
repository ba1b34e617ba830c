/**
 * One document stored as parts: its bytes cut at content-defined points (`cut-parts.ts`),
 * each part an artifact of its own named by its SHA-256, and the manifest that lists them
 * with the whole document's length, SHA-256, media type and headers (`live/bundle-parts.ts`
 * owns the paths and the manifest's shape). Pure: the caller decides which documents are
 * parted and where the artifacts go.
 */
import { createHash } from 'node:crypto';
import {
  type PartEntry,
  type PartsManifest,
  partFilePath,
  partsManifestPath,
} from '../../live/bundle-parts.js';
import type { Artifact } from '../artifact.js';
import { bytesArtifact } from '../compact-artifact.js';
import { cutParts, type PartSizes } from './cut-parts.js';

/** Parts are served as bytes; the whole document's type is in its manifest. */
export const PART_MEDIA_TYPE = 'application/octet-stream';

export interface PartedDocument {
  manifest: PartsManifest;
  /** The manifest's own artifact. */
  manifestArtifact: Artifact;
  /** One artifact a distinct part (a part repeated in the document is stored once). */
  parts: Artifact[];
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function partDocument(
  document: Pick<Artifact, 'path' | 'mediaType'>,
  chunks: Iterable<Uint8Array>,
  headers: readonly (readonly [string, string])[],
  sizes: PartSizes,
): PartedDocument {
  const whole = createHash('sha256');
  const entries: PartEntry[] = [];
  const parts = new Map<string, Artifact>();
  let length = 0;
  for (const bytes of cutParts(chunks, sizes)) {
    whole.update(bytes);
    length += bytes.length;
    const sha256 = sha256Hex(bytes);
    const path = partFilePath(document.path, sha256);
    entries.push({ path, length: bytes.length, sha256 });
    if (!parts.has(path)) {
      parts.set(
        path,
        bytesArtifact(
          { path, mediaType: PART_MEDIA_TYPE },
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
        ),
      );
    }
  }
  const manifest: PartsManifest = {
    format: 1,
    document: document.path,
    media_type: document.mediaType,
    length,
    sha256: whole.digest('hex'),
    headers: headers.map(([name, value]) => [name, value]),
    parts: entries,
  };
  return {
    manifest,
    manifestArtifact: {
      path: partsManifestPath(document.path),
      mediaType: 'application/json',
      body: `${JSON.stringify(manifest, null, 2)}\n`,
    },
    parts: [...parts.values()],
  };
}
