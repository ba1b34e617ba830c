/**
 * Reads a parted document back whole from a bundle on disk (`live/bundle-parts.ts`): its
 * manifest, then each part in order, checked against the manifest's lengths and SHA-256 so
 * a damaged part is never taken for the document. The build reads the last bundle's catalog
 * this way, chunk by chunk, and `check` every parted document of a bundle directory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type PartsManifest, parsePartsManifest, partsManifestPath } from '../../live/bundle-parts.js';
import { CatalogError } from '../errors.js';
import { partsDigest } from '../parts/part-document.js';

export async function readPartsManifest(dir: string, manifestPath: string): Promise<PartsManifest> {
  const manifest = parsePartsManifest(await readFile(join(dir, manifestPath), 'utf8'));
  if (manifest === undefined) {
    throw new CatalogError('OUTPUT_INVALID', `${manifestPath} is not a parts manifest`, {
      path: manifestPath,
    });
  }
  return manifest;
}

/** A part's bytes, refused when they differ from the manifest's entry. */
function checkedPart(manifest: PartsManifest, index: number, bytes: Buffer): Buffer {
  const part = manifest.parts[index];
  if (part === undefined) throw new TypeError(`${manifest.document}'s manifest has no part ${index + 1}`);
  if (bytes.length !== part.length || createHash('sha256').update(bytes).digest('hex') !== part.sha256) {
    const name = part.path ?? `part ${index + 1} (in the manifest)`;
    throw new CatalogError(
      'OUTPUT_INVALID',
      `${name} differs from its entry in ${manifest.document}'s parts manifest`,
      {
        path: part.path ?? partsManifestPath(manifest.document),
      },
    );
  }
  return bytes;
}

/** The parts' bytes make the document the manifest names (format 1 hashes the whole document). */
function checkWhole(manifest: PartsManifest, length: number, whole: ReturnType<typeof createHash>): void {
  const digest = manifest.format === 1 ? whole.digest('hex') : partsDigest(manifest.parts);
  if (length !== manifest.length || digest !== manifest.sha256) {
    throw new CatalogError(
      'OUTPUT_INVALID',
      `the parts of ${manifest.document} do not make the document their manifest names`,
      {
        path: manifest.document,
      },
    );
  }
}

/**
 * The document a manifest describes, part by part in order, each checked before it is
 * given; the whole is checked after the last part, so a reader that stops at an error
 * never takes a damaged document for the real one.
 */
export async function* readParts(dir: string, manifest: PartsManifest): AsyncGenerator<Buffer> {
  const whole = createHash('sha256');
  let length = 0;
  for (const [index, part] of manifest.parts.entries()) {
    const bytes =
      part.path === undefined ? Buffer.from(part.text ?? '', 'utf8') : await readFile(join(dir, part.path));
    checkedPart(manifest, index, bytes);
    if (manifest.format === 1) whole.update(bytes);
    length += bytes.length;
    yield bytes;
  }
  checkWhole(manifest, length, whole);
}

/**
 * The same, read synchronously: the gate's checkers are synchronous, and a directory's
 * parted document is read from its parts each time a checker walks it.
 */
export function* readPartsSync(dir: string, manifest: PartsManifest): Generator<Buffer> {
  const whole = createHash('sha256');
  let length = 0;
  for (const [index, part] of manifest.parts.entries()) {
    const bytes =
      part.path === undefined ? Buffer.from(part.text ?? '', 'utf8') : readFileSync(join(dir, part.path));
    checkedPart(manifest, index, bytes);
    if (manifest.format === 1) whole.update(bytes);
    length += bytes.length;
    yield bytes;
  }
  checkWhole(manifest, length, whole);
}

/** The whole document a manifest describes, from its parts. */
export async function joinParts(dir: string, manifest: PartsManifest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const bytes of readParts(dir, manifest)) chunks.push(bytes);
  return Buffer.concat(chunks);
}

/**
 * A document of the bundle at `dir` by its file path, whole or from its parts, as chunks
 * in order: never one buffer (the catalog is 263 MB at 100,000 products).
 */
export async function* readDocumentChunks(
  dir: string,
  path: string,
  files: { has(path: string): boolean },
): AsyncGenerator<Buffer> {
  const manifestPath = partsManifestPath(path);
  if (files.has(path) || !files.has(manifestPath)) {
    for await (const chunk of createReadStream(join(dir, path))) yield chunk as Buffer;
    return;
  }
  yield* readParts(dir, await readPartsManifest(dir, manifestPath));
}
