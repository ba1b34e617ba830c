/**
 * Each document of a bundle read at most once per validation, and not read back at all
 * when the build still holds the value a library serialised it from. Several checkers
 * read the same JSON document (the catalog, `kb/products.json`), and parsing a
 * 50,000-product document back is most of what a validation costs, so such a reading goes
 * through `readOnce`: a cache per bundle (a WeakMap keyed by the files map, dropped with
 * the bundle) and per reader. A reading of one checker only (`readUnkept`), or one walked
 * item by item (`serialisedValue`, `documentChunks`), is kept by no one: held until the
 * gate ends, the feed's facts and the knowledge base's sections grew with the catalog. `bundleFilesOf` seeds it from artifacts that
 * carry `serialisedFrom`; a file read from a directory or a live site has no seed and is
 * parsed from its text, so `agent-catalog check` reads exactly what is published.
 */
import type { Artifact } from '../artifact.js';
import { artifactChunks, isCompactArtifact } from '../compact-artifact.js';
import { filesOfArtifacts, LazyBundleFiles } from './lazy-bundle-files.js';
import type { BundleFiles } from './problem.js';

/** One way of reading a document; its `name` keeps two readers of one file apart in the cache. */
export interface DocumentReader<T> {
  readonly name: string;
  parse(body: string): T;
  /**
   * The same reading from the value the body was serialised from, for a document a library
   * (JSON.stringify, fast-xml-parser's XMLBuilder) wrote from that value: parsing it back
   * would rebuild the value. Absent for readers that must look at the text itself.
   */
  fromSerialised?(value: unknown): T;
}

const readingsByBundle = new WeakMap<BundleFiles, Map<string, unknown>>();
/** Per bundle made from artifacts, the artifact of each path: its bytes can be read in chunks. */
const artifactsByBundle = new WeakMap<BundleFiles, ReadonlyMap<string, Artifact>>();
/** Per bundle, the `serialisedFrom` of each seeded path: its value is read only when a reader asks. */
const seedsByBundle = new WeakMap<BundleFiles, ReadonlyMap<string, { readonly value: unknown }>>();

/** The bundle of these artifacts as files, with each serialised value ready for the readers. */
export function bundleFilesOf(artifacts: readonly Artifact[]): BundleFiles {
  const files = filesOfArtifacts(artifacts);
  const seeds = new Map<string, { readonly value: unknown }>();
  for (const artifact of artifacts) {
    // A copy whose body was edited after emitting keeps the old value: it must be read as text.
    const source = artifact.serialisedFrom;
    if (source !== undefined && (isCompactArtifact(artifact) || source.body === artifact.body))
      seeds.set(artifact.path, source);
  }
  if (seeds.size > 0) seedsByBundle.set(files, seeds);
  // The last artifact of a path is the file, as in `filesOfArtifacts`.
  artifactsByBundle.set(files, new Map(artifacts.map((artifact) => [artifact.path, artifact])));
  return files;
}

/**
 * A document's bytes in order, a chunk at a time (a parted document part by part), for a
 * bundle made from artifacts or read from a directory (a `.gz` file's gunzipped); undefined
 * for other bundles (a live site's: read their text) or no such file.
 */
export function documentChunks(files: BundleFiles, path: string): Iterable<Buffer> | undefined {
  const artifact = artifactsByBundle.get(files)?.get(path);
  if (artifact !== undefined) return { [Symbol.iterator]: () => artifactChunks(artifact) };
  return files instanceof LazyBundleFiles ? files.chunks(path) : undefined;
}

/**
 * The reading of one document for its only reader, not kept for the bundle: a tree that one
 * checker walks once would otherwise stay in memory until the whole validation ends. The
 * build's serialised value is still used when it has one.
 */
export function readUnkept<T>(files: BundleFiles, path: string, reader: DocumentReader<T>): T | undefined {
  const seed = seedsByBundle.get(files)?.get(path);
  if (reader.fromSerialised !== undefined && seed !== undefined) return reader.fromSerialised(seed.value);
  const body = files.get(path);
  return body === undefined ? undefined : reader.parse(body);
}

/**
 * The value the build serialised a document from, when the bundle has one and its body was
 * not edited since: a reader that walks the document item by item walks that value instead.
 */
export function serialisedValue(files: BundleFiles, path: string): { readonly value: unknown } | undefined {
  return seedsByBundle.get(files)?.get(path);
}

/** The reading of one document (undefined when the bundle has no such file), computed once per bundle. */
export function readOnce<T>(files: BundleFiles, path: string, reader: DocumentReader<T>): T | undefined {
  let cache = readingsByBundle.get(files);
  if (cache === undefined) {
    cache = new Map();
    readingsByBundle.set(files, cache);
  }
  const key = `${reader.name}\u0000${path}`;
  if (cache.has(key)) return cache.get(key) as T;
  if (!files.has(path)) return undefined;
  const seeds = seedsByBundle.get(files);
  // A seeded reading never touches the text: reading a parted 261 MiB catalog back from its
  // parts only to learn that it exists was a tenth of a 100,000-product rebuild.
  let reading: T;
  const seed = seeds?.get(path);
  if (reader.fromSerialised !== undefined && seed !== undefined) {
    reading = reader.fromSerialised(seed.value);
  } else {
    const body = files.get(path);
    if (body === undefined) return undefined;
    reading = reader.parse(body);
  }
  cache.set(key, reading);
  return reading;
}
