/**
 * A bundle's files as the gate reads them (path → text), read from their source when a
 * checker asks for one rather than copied up front: from the build's artifacts (a compact
 * artifact decodes its bytes on each read, compact-artifact.ts) or from a directory's bytes
 * (gunzipped and decoded on each read), or a directory's files read from disk on each
 * read (`check/read-dir.ts`). At 100,000 products the texts are about two billion
 * characters, more than Node's default heap holds at once; a checker that needs a document
 * more than once reads it through `readOnce`.
 */
import type { Artifact } from '../artifact.js';
import { decodeBundleFile, decodedBundleBytes } from '../bundle-file-encoding.js';
import type { BundleFiles } from './problem.js';

export class LazyBundleFiles implements BundleFiles {
  readonly #readers: ReadonlyMap<string, () => string>;
  readonly #chunkReaders: ReadonlyMap<string, () => Iterable<Buffer>>;

  /** `chunkReaders` give a file's text as UTF-8 bytes a chunk at a time, for the streamed readers. */
  constructor(
    readers: ReadonlyMap<string, () => string>,
    chunkReaders: ReadonlyMap<string, () => Iterable<Buffer>> = new Map(),
  ) {
    this.#readers = readers;
    this.#chunkReaders = chunkReaders;
  }

  /** The file's text as byte chunks in order, read as the iteration reaches them; undefined when unknown. */
  chunks(path: string): Iterable<Buffer> | undefined {
    const read = this.#chunkReaders.get(path);
    return read === undefined ? undefined : { [Symbol.iterator]: () => read()[Symbol.iterator]() };
  }

  get size(): number {
    return this.#readers.size;
  }

  has(path: string): boolean {
    return this.#readers.has(path);
  }

  get(path: string): string | undefined {
    return this.#readers.get(path)?.();
  }

  keys(): MapIterator<string> {
    return this.#readers.keys();
  }

  *values(): MapIterator<string> {
    for (const read of this.#readers.values()) yield read();
  }

  *entries(): MapIterator<[string, string]> {
    for (const [path, read] of this.#readers) yield [path, read()];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(visit: (text: string, path: string, files: BundleFiles) => void): void {
    for (const [path, text] of this.entries()) visit(text, path, this);
  }
}

/** The build's artifacts as files: each text read from its artifact (the last one of a path wins). */
export function filesOfArtifacts(artifacts: readonly Artifact[]): LazyBundleFiles {
  return new LazyBundleFiles(new Map(artifacts.map((artifact) => [artifact.path, () => artifact.body])));
}

/** A bundle's file bytes as files: each decoded (`.gz` gunzipped) when read. */
export function filesOfBytes(files: ReadonlyMap<string, Buffer>): LazyBundleFiles {
  return new LazyBundleFiles(
    new Map([...files].map(([path, bytes]) => [path, () => decodeBundleFile(path, bytes)])),
    new Map([...files].map(([path, bytes]) => [path, () => [decodedBundleBytes(path, bytes)]])),
  );
}
