/**
 * A bundle's files as the gate reads them (path → text), over the artifacts themselves: a
 * text is read from its artifact when a checker asks for it, not copied up front. A compact
 * artifact (compact-artifact.ts) decodes its body on each read, so the whole bundle is never
 * held as strings at once; a checker that needs a document more than once reads it through
 * `readOnce`.
 */
import type { Artifact } from '../artifact.js';
import type { BundleFiles } from './problem.js';

export class ArtifactTexts implements BundleFiles {
  readonly #byPath: ReadonlyMap<string, Artifact>;

  constructor(artifacts: readonly Artifact[]) {
    this.#byPath = new Map(artifacts.map((artifact) => [artifact.path, artifact]));
  }

  get size(): number {
    return this.#byPath.size;
  }

  has(path: string): boolean {
    return this.#byPath.has(path);
  }

  get(path: string): string | undefined {
    return this.#byPath.get(path)?.body;
  }

  keys(): MapIterator<string> {
    return this.#byPath.keys();
  }

  *values(): MapIterator<string> {
    for (const artifact of this.#byPath.values()) yield artifact.body;
  }

  *entries(): MapIterator<[string, string]> {
    for (const [path, artifact] of this.#byPath) yield [path, artifact.body];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(visit: (text: string, path: string, files: BundleFiles) => void): void {
    for (const [path, text] of this.entries()) visit(text, path, this);
  }
}
