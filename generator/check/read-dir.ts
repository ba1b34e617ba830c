/**
 * Reads a bundle directory into the gate's input: every regular file, by its path
 * relative to the directory with forward slashes, as UTF-8 text (`.gz` files gunzipped). Symbolic links are
 * not followed (a bundle holds plain files), and the walk is bounded so a wrong
 * directory (a home folder, `/`) fails fast instead of reading the disk.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { decodeBundleFile } from '../bundle-file-encoding.js';
import { CatalogError } from '../errors.js';
import type { BundleFiles } from '../validate/index.js';

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
  const files = new Map<string, string>();
  for (const file of await listFiles(dir)) {
    const path = relative(dir, file).split(sep).join('/');
    files.set(path, decodeBundleFile(path, await readFile(file)));
  }
  return files;
}
