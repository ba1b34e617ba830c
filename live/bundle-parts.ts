/**
 * How a parted document is laid out in the bundle, for the generator that writes it and the
 * live handler that serves it whole (docs/documents.md, "Parted documents"). A document too
 * large for one host file (Cloudflare Pages serves none over 25 MiB) is stored as parts in
 * `_parts/by-sha256/`, each named by its SHA-256: a part whose bytes did not change keeps its
 * name and stays an unchanged file however the parts around it moved, and a part two
 * documents share (the catalog and `kb/products.json` hold the same records) is one file.
 * `_parts/<file path>/manifest.json` lists the document's parts in order (a small one, such
 * as the head that holds the build time, written in the manifest itself) with the whole
 * document's length, digest (its strong ETag), media type and headers. `_parts/index.json` maps each URL path a
 * parted document answers at to its manifest. This module owns those paths; web-standard
 * only, so every shell's bundle can carry it.
 */

export const PARTS_DIR = '_parts';
export const PARTS_INDEX_PATH = `${PARTS_DIR}/index.json`;

/** The folder of a document's parts and manifest, by the document's bundle file path. */
function partsFolderOf(documentPath: string): string {
  return `${PARTS_DIR}/${documentPath}`;
}

export function partsManifestPath(documentPath: string): string {
  return `${partsFolderOf(documentPath)}/manifest.json`;
}

/** A part's file: named by the first 32 hex digits (128 bits) of its SHA-256, whichever documents hold it. */
export function partFilePath(sha256: string): string {
  return `${PARTS_DIR}/by-sha256/${sha256.slice(0, 32)}.part`;
}

/** The document a manifest path belongs to (`_parts/feed.xml/manifest.json` → `feed.xml`). */
export function documentOfManifest(manifestPath: string): string {
  return manifestPath.slice(PARTS_DIR.length + 1, -'/manifest.json'.length);
}

/** True for every file of the parts layout (parts, manifests, the index). */
export function isPartsFile(path: string): boolean {
  return path.startsWith(`${PARTS_DIR}/`);
}

/** True for a document's parts manifest (not the index, not a part). */
export function isPartsManifestPath(path: string): boolean {
  return isPartsFile(path) && path.endsWith('/manifest.json') && path !== PARTS_INDEX_PATH;
}

export interface PartEntry {
  /** Bundle-relative file path of the part; absent for a part written in the manifest (`text`). */
  path?: string;
  length: number;
  sha256: string;
  /** A small part's bytes as text, in the manifest itself (format 2): no file to write or fetch. */
  text?: string;
}

/**
 * The manifest's format: 2 since its `sha256` is the digest of the parts' list (format 1
 * hashed the whole document). Both are read; the build writes 2.
 */
export const PARTS_MANIFEST_FORMAT = 2;

export interface PartsManifest {
  format: 1 | 2;
  /** The document's own bundle file path (`agent-catalog.json`), as it would be stored whole. */
  document: string;
  media_type: string;
  /** Bytes of the whole document. */
  length: number;
  /**
   * Hex, the document's strong entity tag: format 2, SHA-256 over each part's `<length>
   * <sha256>` line (`partsDigest` in generator/parts/part-document.ts), known without reading
   * the parts; format 1, SHA-256 of the whole document.
   */
  sha256: string;
  /** The headers the static file had (`_headers`), in order; Content-Type among them. */
  headers: [name: string, value: string][];
  parts: PartEntry[];
}

export interface PartsIndex {
  format: 1;
  /** URL path (the public path and the file's own path) → the document's manifest path. */
  documents: Record<string, string>;
}

/** The entity tag a parted document is served with: its digest, strong (RFC 9110 section 8.8.3). */
export function partsEtag(manifest: Pick<PartsManifest, 'sha256'>): string {
  return `"${manifest.sha256}"`;
}

function isRecordOf(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object whose `format` is one of `formats`, or undefined for any other text. */
function parseFormat(text: string, formats: readonly unknown[]): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isRecordOf(value) && formats.includes(value.format) ? value : undefined;
}

/** A manifest read from the bundle, checked field by field; undefined when it is not one. */
export function parsePartsManifest(text: string): PartsManifest | undefined {
  const value = parseFormat(text, [1, PARTS_MANIFEST_FORMAT]);
  if (value === undefined || !Array.isArray(value.parts)) return undefined;
  const parts = value.parts.every(
    (part: unknown) =>
      isRecordOf(part) &&
      (typeof part.path === 'string' || (value.format !== 1 && typeof part.text === 'string')) &&
      typeof part.sha256 === 'string' &&
      Number.isSafeInteger(part.length),
  );
  const headers =
    Array.isArray(value.headers) &&
    value.headers.every(
      (header: unknown) =>
        Array.isArray(header) && header.length === 2 && header.every((item) => typeof item === 'string'),
    );
  const fields =
    typeof value.document === 'string' &&
    typeof value.media_type === 'string' &&
    typeof value.sha256 === 'string' &&
    Number.isSafeInteger(value.length);
  return parts && headers && fields ? (value as unknown as PartsManifest) : undefined;
}

/** The index read from the bundle; undefined when it is not one. */
export function parsePartsIndex(text: string): PartsIndex | undefined {
  const value = parseFormat(text, [1]);
  if (value === undefined || !isRecordOf(value.documents)) return undefined;
  const documents = value.documents;
  return Object.values(documents).every((path) => typeof path === 'string')
    ? (value as unknown as PartsIndex)
    : undefined;
}
