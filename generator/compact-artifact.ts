/**
 * An artifact whose body is kept as UTF-8 bytes outside V8's heap, decoded again on each
 * read of `body`. At 100,000 products a bundle is about two billion characters, and V8
 * stores a string holding any character past U+00FF at two bytes a character: held as
 * strings, the bundle alone passed Node's default heap limit (about 4.3 GB on a 64-bit
 * machine) and the build died of it. As bytes it is about half that, and off the heap.
 *
 * Every reader keeps reading `body`; the few that only need the bytes (publishing and the
 * "nothing changed" comparison) take them from `artifactBytes` without decoding. A compact
 * artifact still carries the value it was serialised from; assigning a new body drops it.
 */
import type { Artifact } from './artifact.js';

const bytesOfCompact = new WeakMap<object, Buffer>();

export function compactArtifact(artifact: Artifact): Artifact {
  const { body, serialisedFrom, ...rest } = artifact;
  const compact: Artifact = { ...rest, body: '' };
  bytesOfCompact.set(compact, Buffer.from(body, 'utf8'));
  Object.defineProperty(compact, 'body', {
    enumerable: true,
    configurable: true,
    get: () => bytesOfCompact.get(compact)?.toString('utf8') ?? '',
    set: (text: string) => {
      bytesOfCompact.set(compact, Buffer.from(text, 'utf8'));
      delete compact.serialisedFrom;
    },
  });
  if (serialisedFrom !== undefined && serialisedFrom.body === body) {
    // `body` reads the artifact's own text, so a copy whose body was changed no longer matches it.
    compact.serialisedFrom = {
      value: serialisedFrom.value,
      get body() {
        return compact.body;
      },
    };
  }
  return compact;
}

/** True for an artifact from `compactArtifact`: its `serialisedFrom`, if any, matches its body by construction. */
export function isCompactArtifact(artifact: Artifact): boolean {
  return bytesOfCompact.has(artifact);
}

/** The UTF-8 bytes of an artifact's body, without a round trip through a string when it is compact. */
export function artifactBytes(artifact: Pick<Artifact, 'body'>): Buffer {
  return bytesOfCompact.get(artifact) ?? Buffer.from(artifact.body, 'utf8');
}
