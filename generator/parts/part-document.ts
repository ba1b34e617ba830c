/**
 * One document stored as parts: a document of products cut along runs of products
 * (`run-parts.ts`), any other at content-defined points of its bytes (`cut-parts.ts`), each
 * part an artifact of its own named by its SHA-256, and the manifest that lists them with
 * the whole document's length, digest (`partsDigest`), media type and headers (`live/bundle-parts.ts`
 * owns the paths and the manifest's shape). Pure: the caller decides which documents are
 * parted and where the artifacts go.
 */
import { createHash } from 'node:crypto';
import {
  PARTS_MANIFEST_FORMAT,
  type PartEntry,
  type PartsManifest,
  partFilePath,
  partsManifestPath,
} from '../../live/bundle-parts.js';
import type { Artifact } from '../artifact.js';
import { bytesArtifact, knownBytesArtifact } from '../compact-artifact.js';
import type { PieceSequence } from '../document-pieces.js';
import { cutParts, type PartSizes } from './cut-parts.js';
import { cutPartOf, eachRunPart, type RunCache, type RunCutPart } from './run-parts.js';

/** Parts are served as bytes; the whole document's type is in its manifest. */
export const PART_MEDIA_TYPE = 'application/octet-stream';

/** A document cut into parts: stored in them, or found to fit one file after all. */
export type PartedDocument =
  | {
      manifest: PartsManifest;
      /** The manifest's own artifact. */
      manifestArtifact: Artifact;
    }
  | {
      /**
       * The whole document's bytes, joined from the parts just cut (a kept part read again
       * from its run), so that its products' fragments are not read a second time to
       * write it whole. No part was stored.
       */
      whole: () => Buffer;
    };

/** Where a part goes as soon as it is cut (the build's sink), once the document is known to be parted. */
export type StorePart = (part: Artifact) => void;

/**
 * A parted document's digest, its strong entity tag: SHA-256 over its parts' lengths and
 * SHA-256s, one line each. It changes whenever a byte of the document does, and it is known
 * without reading the parts a rebuild kept from the last bundle (manifest format 2; format 1
 * hashed the whole document, which meant reading every part on every build).
 */
export function partsDigest(parts: readonly { length: number; sha256: string }[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length} ${part.sha256}\n`);
  return hash.digest('hex');
}

/**
 * A document's head and tail (its bytes before the first product and after the last) this
 * small are written in the manifest, which changes with any part anyway: the head holds the
 * build time, and would otherwise be one more file written on every build.
 */
export const MAX_INLINE_BYTES = 8 * 1024;

/** The part's bytes as text when they are UTF-8 through and through (they come back byte for byte). */
function inlineText(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text, 'utf8') === bytes.length && Buffer.from(text, 'utf8').equals(bytes)
    ? text
    : undefined;
}

/** Parts cut at content-defined points of the bytes: for a document not made of products. */
function* cutBytes(pieces: PieceSequence, sizes: PartSizes): Generator<RunCutPart> {
  for (const part of cutParts(pieces.chunks(), sizes)) yield cutPartOf(part, true);
}

/**
 * Cuts the document into parts. Each part goes to `storePart` as soon as the parts cut so
 * far are more than one file may hold (those before it are held until then, at most `max`
 * bytes), so a large document is never in memory whole; a part repeated in the document
 * is stored once. A document that ends within `max` is returned whole instead.
 */
export function partDocument(
  document: Pick<Artifact, 'path' | 'mediaType'>,
  pieces: PieceSequence,
  headers: readonly (readonly [string, string])[],
  sizes: PartSizes,
  cache: RunCache,
  storePart: StorePart,
): PartedDocument {
  // A document of products is cut along runs of them (run-parts.ts), anything else by its bytes.
  const cut = pieces.ofProducts ? eachRunPart(document.path, pieces, sizes, cache) : cutBytes(pieces, sizes);
  const entries: PartEntry[] = [];
  const storedPaths = new Set<string>();
  let held: { part: RunCutPart; entry: PartEntry }[] | undefined = [];
  let length = 0;
  const store = ({ part, entry }: { part: RunCutPart; entry: PartEntry }) => {
    if (entry.path === undefined || storedPaths.has(entry.path)) return;
    storedPaths.add(entry.path);
    const meta = { path: entry.path, mediaType: PART_MEDIA_TYPE };
    storePart(
      part.kept ? knownBytesArtifact(meta, part.sha256, part.read) : bytesArtifact(meta, part.read()),
    );
  };
  for (const part of cut) {
    length += part.length;
    const entry = entryOf(part);
    entries.push(entry);
    if (held === undefined) store({ part, entry });
    else {
      held.push({ part, entry });
      if (length <= sizes.max) continue;
      for (const earlier of held) store(earlier);
      held = undefined;
    }
  }
  if (held !== undefined)
    return {
      whole: joinOnce(
        held.map(({ part }) => part),
        length,
      ),
    };
  const manifest: PartsManifest = {
    format: PARTS_MANIFEST_FORMAT,
    document: document.path,
    media_type: document.mediaType,
    length,
    sha256: partsDigest(entries),
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
  };
}

/** A part's line in the manifest: its text when it is a small head or tail, else the file that holds it. */
function entryOf(part: RunCutPart): PartEntry {
  const text = !part.ofProducts && part.length <= MAX_INLINE_BYTES ? inlineText(part.read()) : undefined;
  if (text !== undefined) return { length: part.length, sha256: part.sha256, text };
  return { path: partFilePath(part.sha256), length: part.length, sha256: part.sha256 };
}

/**
 * The parts' bytes joined on the first call and kept; the parts are let go then. A function
 * of its own, so that only what it names stays reachable from the closure.
 */
function joinOnce(cut: readonly RunCutPart[], length: number): () => Buffer {
  let parts: readonly RunCutPart[] = cut;
  let joined: Buffer | undefined;
  return () => {
    if (joined === undefined) {
      joined = Buffer.concat(
        parts.map((part) => part.read()),
        length,
      );
      parts = [];
    }
    return joined;
  };
}
