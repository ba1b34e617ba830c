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
 *
 * A spilled artifact (`spillArtifact`) goes one step further: its bytes live in a file (the
 * build's staging folder), read back on each use, so the bundle is never in memory at once.
 */
import type { Artifact } from './artifact.js';
import { type DocumentPiece, PieceSequence } from './document-pieces.js';

/** The bytes of a compact artifact, or how to read them from the file that holds them. */
const bytesOfCompact = new WeakMap<object, Buffer | (() => Buffer)>();

function bytesOf(artifact: object): Buffer | undefined {
  const known = bytesOfCompact.get(artifact);
  return typeof known === 'function' ? known() : known;
}

export function compactArtifact(artifact: Artifact): Artifact {
  // Already bytes (an emitter that assembled its document from fragments): reading `body`
  // here would decode the whole document into a string for nothing.
  if (bytesOfCompact.has(artifact)) return artifact;
  const { body, serialisedFrom, ...rest } = artifact;
  const compact: Artifact = { ...rest, body: '' };
  bytesOfCompact.set(compact, Buffer.from(body, 'utf8'));
  Object.defineProperty(compact, 'body', {
    enumerable: true,
    configurable: true,
    get: () => bytesOf(compact)?.toString('utf8') ?? '',
    set: (text: string) => {
      bytesOfCompact.set(compact, Buffer.from(text, 'utf8'));
      // Its pieces or chunks are the old body's.
      piecesOfCompact.delete(compact);
      chunksOfCompact.delete(compact);
      delete compact.serialisedFrom;
    },
  });
  if (serialisedFrom !== undefined && serialisedFrom.body === body) {
    // `body` reads the artifact's own text, so a copy whose body was changed no longer matches it.
    compact.serialisedFrom = {
      // Read through: an emitter may compute its value only when a checker asks (the feed's tree).
      get value() {
        return serialisedFrom.value;
      },
      get body() {
        return compact.body;
      },
    };
  }
  return compact;
}

/** A compact artifact made from bytes already encoded (a part of a document): no text round trip. */
export function bytesArtifact(
  meta: Pick<Artifact, 'path' | 'mediaType'> & Partial<Pick<Artifact, 'encoding'>>,
  bytes: Buffer,
): Artifact {
  const artifact = compactArtifact({ ...meta, body: '' });
  bytesOfCompact.set(artifact, bytes);
  return artifact;
}

/** True for an artifact from `compactArtifact`: its `serialisedFrom`, if any, matches its body by construction. */
export function isCompactArtifact(artifact: Artifact): boolean {
  return bytesOfCompact.has(artifact);
}

/** The UTF-8 bytes of an artifact's body, without a round trip through a string when it is compact. */
export function artifactBytes(artifact: Pick<Artifact, 'body'>): Buffer {
  return bytesOf(artifact) ?? Buffer.from(artifact.body, 'utf8');
}

/** Artifacts whose bytes were assembled as pieces (a document of per-product fragments). */
const piecesOfCompact = new WeakMap<Artifact, readonly DocumentPiece[]>();

/**
 * The artifact whose bytes are `pieces` in order. They are joined into one buffer only when
 * something reads the whole bytes (a document written whole); a parted document is cut from
 * the pieces themselves (`artifactPieces`), which saves copying every large document once
 * and reading the fragments of parts that did not change.
 */
export function chunkedArtifact(artifact: Artifact, pieces: readonly DocumentPiece[]): Artifact {
  let whole: Buffer | undefined;
  const spilled = spillArtifact(artifact, () => {
    whole ??= Buffer.concat([...new PieceSequence(pieces).chunks()]);
    return whole;
  });
  piecesOfCompact.set(spilled, pieces);
  return spilled;
}

/** An artifact's bytes as pieces in order: its own pieces when it has them, else its bytes as one. */
export function artifactPieces(artifact: Artifact): readonly DocumentPiece[] {
  return piecesOfCompact.get(artifact) ?? [artifactBytes(artifact)];
}

/** Artifacts whose bytes are a run of chunks read one at a time (a parted document's parts). */
const chunksOfCompact = new WeakMap<Artifact, () => Iterable<Buffer>>();

/**
 * The artifact whose bytes are the chunks `readChunks` gives, in order: joined only when its
 * whole body is read, one chunk at a time by `artifactChunks`.
 */
export function spillArtifactInChunks(artifact: Artifact, readChunks: () => Iterable<Buffer>): Artifact {
  const spilled = spillArtifact(artifact, () => Buffer.concat([...readChunks()]));
  chunksOfCompact.set(spilled, readChunks);
  return spilled;
}

/** The same as byte chunks, each piece (or chunk) read as the iteration reaches it. */
export function* artifactChunks(artifact: Artifact): Generator<Buffer> {
  const chunks = chunksOfCompact.get(artifact);
  if (chunks !== undefined) {
    yield* chunks();
    return;
  }
  yield* new PieceSequence(artifactPieces(artifact)).chunks();
}

/** The SHA-256 (hex) of artifacts whose bytes are known to be a file of the last bundle. */
const knownDigests = new WeakMap<Artifact, string>();

/**
 * An artifact whose bytes (read by `readBody` only when needed) have the SHA-256 `digest`:
 * a part kept from the last bundle, linked from there without reading it.
 */
export function knownBytesArtifact(
  meta: Pick<Artifact, 'path' | 'mediaType'>,
  digest: string,
  readBody: () => Buffer,
): Artifact {
  const artifact = spillArtifact({ ...meta, body: '' }, readBody);
  knownDigests.set(artifact, digest);
  return artifact;
}

/** The digest `knownBytesArtifact` gave, if any (its bytes are not read to learn it). */
export function knownDigestOf(artifact: Artifact): string | undefined {
  return knownDigests.get(artifact);
}

/** The SHA-256 (hex) of the text of compressed artifacts, with the reader of the text it names. */
const textDigests = new WeakMap<Artifact, { digest: string; from: () => Buffer }>();

/**
 * A compressed artifact (`encoding: 'gzip'`) whose text, read by `readBody` only when
 * needed, has the SHA-256 `textDigest`: a feed shard whose emitter knows that digest (it
 * wrote it into the feed's manifest) without the text, or before the writer asks for it.
 * The writer compares that digest with the one the last bundle's file was made from, and
 * keeps the file without reading or compressing the text.
 */
export function textDigestedArtifact(
  meta: Pick<Artifact, 'path' | 'mediaType'>,
  textDigest: string,
  readBody: () => Buffer,
): Artifact {
  const artifact = spillArtifact({ ...meta, body: '', encoding: 'gzip' }, readBody);
  textDigests.set(artifact, { digest: textDigest, from: readBody });
  return artifact;
}

/** The text digest `textDigestedArtifact` gave, while the artifact still reads that text. */
export function knownTextDigestOf(artifact: Artifact): string | undefined {
  const known = textDigests.get(artifact);
  return known !== undefined && bytesOfCompact.get(artifact) === known.from ? known.digest : undefined;
}

/**
 * The same artifact with its body read from `readBody` (the text's UTF-8 bytes, e.g. a file
 * it was written to) on each use instead of held: its bytes can then be freed. Assigning a
 * new body holds that one in memory again.
 */
export function spillArtifact(artifact: Artifact, readBody: () => Buffer): Artifact {
  // Field by field: spreading `artifact` would read (decode) its whole body.
  const { path, mediaType, publicPath, encoding, serialisedFrom } = artifact;
  const spilled = compactArtifact({
    path,
    mediaType,
    body: '',
    ...(publicPath !== undefined ? { publicPath } : {}),
    ...(encoding !== undefined ? { encoding } : {}),
  });
  bytesOfCompact.set(spilled, readBody);
  // The gate may read the value the body was serialised from instead of parsing the body;
  // the body it names is the spilled artifact's own, so they still agree.
  if (serialisedFrom !== undefined) {
    spilled.serialisedFrom = {
      get value() {
        return serialisedFrom.value;
      },
      get body() {
        return spilled.body;
      },
    };
  }
  return spilled;
}
