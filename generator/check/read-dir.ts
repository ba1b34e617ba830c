/**
 * Reads a bundle directory into the gate's input: every regular file, by its path
 * relative to the directory with forward slashes, as UTF-8 text (`.gz` files gunzipped) decoded
 * when a checker reads it. Symbolic links are
 * not followed (a bundle holds plain files), and the walk is bounded so a wrong
 * directory (a home folder, `/`) fails fast instead of reading the disk.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isPartsManifestPath } from '../../live/bundle-parts.js';
import { CatalogError } from '../errors.js';
import { joinParts, readPartsManifest } from '../publish/read-parted.js';
import type { BundleFiles } from '../validate/index.js';
import { filesOfBytes } from '../validate/lazy-bundle-files.js';

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
  // Bytes, decoded when a checker reads them: a large bundle's texts do not fit the heap at once.
  const files = new Map<string, Buffer>();
  for (const file of await listFiles(dir))
    files.set(relative(dir, file).split(sep).join('/'), await readFile(file));
  // A parted document is checked whole, joined from its parts, as its URL serves it.
  for (const path of [...files.keys()].filter(isPartsManifestPath)) {
    const manifest = await readPartsManifest(dir, path);
    if (!files.has(manifest.document)) files.set(manifest.document, await joinParts(dir, manifest));
  }
  return filesOfBytes(files);
}
