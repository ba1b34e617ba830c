/**
 * A bundle's shape (`host-fit.ts`) read from its files: each file's size on disk, the rules
 * of `_headers` and `_routes.json`, and the gzip size of each host's live handler (what the
 * hosts count against their size limits). One reader for the build (its artifacts, before
 * anything is written) and `check` (the files of a bundle directory).
 */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isPartsManifestPath, parsePartsManifest } from '../../live/bundle-parts.js';
import { NETLIFY_FUNCTION_FILE, WORKER_FILE } from '../../live/shells/host-files.js';
import type { Artifact } from '../artifact.js';
import { encodeArtifact } from '../bundle-file-encoding.js';
import { HEADERS_FILE, parseHeadersFile } from '../emit/hosting-rules-format.js';
import { parseRoutesFile, ROUTES_FILE } from '../emit/live-routes.js';
import { type BundleShape, describeBundleShape, NO_PARTED_DOCUMENTS, type PartedShape } from './host-fit.js';

/** One file of the bundle: its path, its size, and its bytes when a rule file or a handler needs reading. */
export interface ShapeFile {
  path: string;
  bytes: number;
  read: () => Buffer;
}

const READ_FILES = new Set([HEADERS_FILE, ROUTES_FILE, WORKER_FILE, NETLIFY_FUNCTION_FILE]);

function countRoutes(text: string): number {
  try {
    const routes = parseRoutesFile(text);
    return routes.include.length + routes.exclude.length;
  } catch {
    // An unreadable _routes.json is the gate's finding (live-routes.ts), not a size.
    return 0;
  }
}

/** A parts manifest's document, part count and whole length, folded into the largest so far. */
function foldParted(parted: PartedShape, text: string): PartedShape {
  const manifest = parsePartsManifest(text);
  if (manifest === undefined) return parted;
  const { document, length } = manifest;
  // A part written in the manifest is no fetch of its own.
  const parts = manifest.parts.filter((part) => part.path !== undefined).length;
  return {
    mostParts: parts > parted.mostParts.parts ? { path: document, parts } : parted.mostParts,
    largestStreamed:
      length > parted.largestStreamed.bytes ? { path: document, bytes: length } : parted.largestStreamed,
  };
}

export function readBundleShape(files: Iterable<ShapeFile>): BundleShape {
  const sizes: [string, number][] = [];
  const rules = { headerRules: 0, routeRules: 0, workerCompressedBytes: 0, functionCompressedBytes: 0 };
  let parted = NO_PARTED_DOCUMENTS;
  for (const file of files) {
    sizes.push([file.path, file.bytes]);
    if (isPartsManifestPath(file.path)) parted = foldParted(parted, file.read().toString('utf8'));
    if (!READ_FILES.has(file.path)) continue;
    const bytes = file.read();
    if (file.path === HEADERS_FILE) rules.headerRules = parseHeadersFile(bytes.toString('utf8')).length;
    if (file.path === ROUTES_FILE) rules.routeRules = countRoutes(bytes.toString('utf8'));
    if (file.path === WORKER_FILE) rules.workerCompressedBytes = gzipSync(bytes).length;
    if (file.path === NETLIFY_FUNCTION_FILE) rules.functionCompressedBytes = gzipSync(bytes).length;
  }
  return describeBundleShape(sizes, { ...rules, ...parted });
}

/** The shape of the bundle these artifacts become (a `.gz` artifact counted compressed). */
export function shapeOfArtifacts(artifacts: readonly Artifact[]): BundleShape {
  return readBundleShape(
    artifacts.map((artifact) => {
      const bytes = encodeArtifact(artifact);
      return { path: artifact.path, bytes: bytes.length, read: () => bytes };
    }),
  );
}

/** The shape of the bundle in a directory: sizes from the file system, only the rule files and handlers read. */
export async function readBundleDirShape(dir: string): Promise<BundleShape> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: ShapeFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files.push({
      path: relative(dir, file).split(sep).join('/'),
      bytes: (await stat(file)).size,
      read: () => readFileSync(file),
    });
  }
  return readBundleShape(files);
}
