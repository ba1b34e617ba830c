/**
 * How each emitted document is stored in the bundle: whole (one file, served by the host as
 * a static file), or in parts (`parts/part-document.ts`) that the live handler streams back
 * whole at the document's URLs. A document is parted when the live handler runs on the
 * hosts the bundle is for, it is served as it is (no gzip, no HTML page the handler
 * negotiates, not the handler's own data), and it is larger than one part may be: then no
 * file of the bundle is larger than a part, whatever the catalog's size. On Netlify alone
 * (`build.hosts: ["netlify"]`) documents stay whole: Netlify serves a static file of any
 * size, while its function streams at most 20 MB (docs/hosting.md).
 *
 * The gate still reads every document whole: `wholeDocuments` turns the files back into the
 * documents, each parted one read by joining its parts, or part by part by a checker that
 * reads it in order (`artifactChunks`).
 */
import { isPartsFile, PARTS_INDEX_PATH, type PartsIndex } from '../../live/bundle-parts.js';
import type { Artifact } from '../artifact.js';
import { artifactUrlPath } from '../artifact.js';
import { artifactBytes, artifactPieces, spillArtifact, spillArtifactInChunks } from '../compact-artifact.js';
import { PieceSequence } from '../document-pieces.js';
import { DEFAULT_PART_SIZES, type PartSizes } from '../parts/cut-parts.js';
import { partDocument } from '../parts/part-document.js';
import type { BuildPlan } from '../plan.js';
import { documentHeaders } from './hosting.js';
import { isLiveData } from './live-index.js';

/** Where a stored file goes (the build's sink): it may come back as another object. */
export type StoreFile = (artifact: Artifact) => Artifact;

/** A parted document as the rules need it: the URL paths the handler must answer. */
export interface PartedSummary {
  manifestPath: string;
  urlPaths: string[];
}

export function partSizesOf(plan: BuildPlan): PartSizes {
  return plan.partSizes ?? DEFAULT_PART_SIZES;
}

/** True when the hosts the bundle is for run the handler that serves parted documents. */
export function partsServed(plan: BuildPlan): boolean {
  const hosts = plan.config.build.hosts;
  const netlifyOnly = hosts.length > 0 && hosts.every((host) => host === 'netlify');
  return plan.config.live.enabled && !netlifyOnly;
}

function isPartable(artifact: Artifact): boolean {
  return (
    artifact.encoding === undefined &&
    !artifact.mediaType.startsWith('text/html') &&
    !isLiveData(artifact) &&
    !isPartsFile(artifact.path)
  );
}

/** The gate's view of a parted document: its manifest's file → the whole document, read from its parts. */
const wholeByManifest = new WeakMap<Artifact, Artifact>();

function urlPathsOf(artifact: Artifact): string[] {
  return [...new Set([artifactUrlPath(artifact), `/${artifact.path}`])];
}

/**
 * Stores one document: its own file (returned by `store`), or its parts and manifest. The
 * returned files are what `store` gave back; `parted` says where the handler finds it.
 */
export function storeDocument(
  plan: BuildPlan,
  document: Artifact,
  store: StoreFile,
  stored: Map<string, Artifact> = new Map(),
): { files: Artifact[]; parted?: PartedSummary } {
  const sizes = partSizesOf(plan);
  if (!partsServed(plan) || !isPartable(document)) return { files: [store(document)] };
  const pieces = new PieceSequence(artifactPieces(document));
  const byteLength = pieces.ownByteLength();
  if (byteLength !== undefined && byteLength <= sizes.max) return { files: [store(document)] };
  // Cut first, then stored whole if it fits one part: the length of a document of products
  // is known without reading them only from the parts kept from the last bundle. Each part
  // is stored as it is cut. A part another document of the build already stored (the same
  // records in the catalog and in kb/products.json) is that file.
  const files: Artifact[] = [];
  const storePart = (part: Artifact) => {
    if (stored.has(part.path)) return;
    const file = store(part);
    stored.set(part.path, file);
    files.push(file);
  };
  const parted = partDocument(
    document,
    pieces,
    documentHeaders(plan, document),
    sizes,
    plan.fragments,
    storePart,
  );
  // Written from the bytes the cut just read: reading the document's own pieces again
  // would read (on a cold build, render or fetch back) every product's fragment twice.
  if ('whole' in parted) return { files: [store(spillArtifact(document, parted.whole))] };
  const manifest = store(parted.manifestArtifact);
  const entries = parted.manifest.parts;
  // Read from the stored parts (the staging files), so the document's bytes can be freed.
  const bytesOf = (entry: (typeof entries)[number]) =>
    entry.text !== undefined
      ? Buffer.from(entry.text, 'utf8')
      : artifactBytes(stored.get(entry.path ?? '') ?? { body: '' });
  // A checker that reads the document in order reads it part by part (`artifactChunks`).
  wholeByManifest.set(
    manifest,
    spillArtifactInChunks(document, function* () {
      for (const entry of entries) yield bytesOf(entry);
    }),
  );
  return {
    files: [...files, manifest],
    parted: { manifestPath: manifest.path, urlPaths: urlPathsOf(document) },
  };
}

/** `_parts/index.json`: every URL a parted document answers at, and its manifest. Nothing when none is. */
export function emitPartsIndex(parted: readonly PartedSummary[]): Artifact[] {
  if (parted.length === 0) return [];
  const documents: PartsIndex['documents'] = {};
  const sorted = parted.flatMap((item) => item.urlPaths.map((path) => [path, item.manifestPath] as const));
  for (const [path, manifest] of sorted.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    documents[path] = manifest;
  }
  const index: PartsIndex = { format: 1, documents };
  return [
    { path: PARTS_INDEX_PATH, mediaType: 'application/json', body: `${JSON.stringify(index, null, 2)}\n` },
  ];
}

/**
 * The bundle's documents as the gate reads them: each parted document whole (in place of
 * its manifest), its parts left out; every other file as it is (the parts index included,
 * so the hosting rules' check knows which URLs the handler answers).
 */
export function wholeDocuments(files: readonly Artifact[]): Artifact[] {
  const documents: Artifact[] = [];
  for (const file of files) {
    const whole = wholeByManifest.get(file);
    if (whole !== undefined) documents.push(whole);
    else if (!isPartsFile(file.path) || file.path === PARTS_INDEX_PATH) documents.push(file);
  }
  return documents;
}
