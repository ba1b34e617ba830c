/**
 * Reads a bundle directory into the gate's input: every regular file, by its path
 * relative to the directory with forward slashes. Only the paths are listed up front; a
 * file is read from disk each time a checker asks for it, as UTF-8 text (`.gz` files
 * gunzipped) or as byte chunks for the streamed readers, so the gate holds one document
 * (or one part of one) at a time, whatever the store's size. Symbolic links are not
 * followed (a bundle holds plain files), and the walk is bounded so a wrong directory (a
 * home folder, `/`) fails fast instead of reading the disk.
 */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { PartsManifest } from '../../live/bundle-parts.js';
import { isPartsManifestPath } from '../../live/bundle-parts.js';
import { decodeBundleFile, decodedBundleBytes } from '../bundle-file-encoding.js';
import { CatalogError } from '../errors.js';
import { readPartsManifest, readPartsSync } from '../publish/read-parted.js';
import type { BundleFiles } from '../validate/index.js';
import { LazyBundleFiles } from '../validate/lazy-bundle-files.js';

/** Far above any bundle: 50,000 products give about 50,300 files (one Markdown page each). */
const MAX_FILES = 200_000;

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  if (files.length > MAX_FILES) {
    throw new CatalogError('CHECK_FAILED', `${root} holds more than ${MAX_FILES} files; is it a bundle?`, {
      dir: root,
    });
  }
  return files.sort();
}

/** Throws FLAG_INVALID when `dir` is not a directory (the CLI exits 2 for it). */
export async function readBundleDir(dir: string): Promise<BundleFiles> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new CatalogError('FLAG_INVALID', `${dir} is not a directory`, { dir });
  }
  const readers = new Map<string, () => string>();
  const chunkReaders = new Map<string, () => Iterable<Buffer>>();
  for (const file of await listFiles(dir)) {
    const path = relative(dir, file).split(sep).join('/');
    readers.set(path, () => decodeBundleFile(path, readFileSync(file)));
    chunkReaders.set(path, () => [decodedBundleBytes(path, readFileSync(file))]);
  }
  // A parted document is checked whole, as its URL serves it: read from its parts, joined
  // only for a checker that asks for its whole text.
  for (const path of [...readers.keys()].filter(isPartsManifestPath)) {
    const manifest = await readPartsManifest(dir, path);
    if (readers.has(manifest.document)) continue;
    checkParts(dir, manifest);
    readers.set(manifest.document, () => Buffer.concat([...readPartsSync(dir, manifest)]).toString('utf8'));
    chunkReaders.set(manifest.document, () => readPartsSync(dir, manifest));
  }
  return new LazyBundleFiles(readers, chunkReaders);
}

/**
 * Every part read once and let go: a damaged part or manifest fails the check before any
 * checker runs, with the error reading the document whole gave.
 */
function checkParts(dir: string, manifest: PartsManifest): void {
  for (const part of readPartsSync(dir, manifest)) void part;
}
