/**
 * Reads a published bundle back from disk: every file under a directory, keyed by its
 * bundle-relative path with forward slashes (as Artifact.path). The build reads the
 * last good bundle's digests to compare against it ("nothing changed", unchanged files
 * kept), and publishing re-reads what it wrote before swapping it in. Walks are bounded.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogError } from '../errors.js';
import {
  type BundleDigests,
  digestKnownInto,
  type KnownFile,
  rememberSource,
  stampInto,
} from './file-digest.js';

const MAX_DEPTH = 16;
const MAX_FILES = 200_000;

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

type Visit = (path: string, file: string) => Promise<void>;

/**
 * The digest of every file of the bundle at `dir` (streamed, or taken from `known` for a file
 * with the stamp it was known by), or undefined when there is no directory.
 */
export async function readBundleDigests(
  dir: string,
  known: ReadonlyMap<string, KnownFile> = new Map(),
): Promise<BundleDigests | undefined> {
  const digests: BundleDigests = new Map();
  try {
    await walk(dir, '', 0, (path, file) => digestKnownInto(digests, path, file, known.get(path)));
  } catch (error) {
    if (isMissing(error) && digests.size === 0) return undefined;
    throw error;
  }
  return digests;
}

/**
 * The bundle at `dir` as its writer knows it: `digests` (what was written or kept) with each
 * file's stamp, taken without reading the files.
 */
export async function stampBundle(
  dir: string,
  digests: ReadonlyMap<string, string>,
  sources: ReadonlyMap<string, string> = new Map(),
): Promise<BundleDigests> {
  const stamped: BundleDigests = new Map();
  await walk(dir, '', 0, async (path, file) => {
    const digest = digests.get(path);
    if (digest === undefined) return;
    stamped.set(path, digest);
    await stampInto(stamped, path, file);
    const source = sources.get(path);
    if (source !== undefined) rememberSource(stamped, path, source);
  });
  return stamped;
}

/** The bundle-relative paths of every file under `dir`, sorted, without reading them. */
export async function listBundleFiles(dir: string): Promise<string[]> {
  const paths: string[] = [];
  await walk(dir, '', 0, async (path) => {
    paths.push(path);
  });
  return paths;
}

async function walk(
  root: string,
  prefix: string,
  depth: number,
  visit: Visit,
  seen = { files: 0 },
): Promise<void> {
  if (depth > MAX_DEPTH) {
    throw new CatalogError('PUBLISH_FAILED', `${root}: folders nested deeper than ${MAX_DEPTH}`, {
      dir: root,
    });
  }
  const entries = await readdir(join(root, prefix), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      await walk(root, path, depth + 1, visit, seen);
    } else if (entry.isFile()) {
      if (seen.files >= MAX_FILES) {
        throw new CatalogError('PUBLISH_FAILED', `${root}: more than ${MAX_FILES} files`, { dir: root });
      }
      seen.files += 1;
      await visit(path, join(root, path));
    }
  }
}
