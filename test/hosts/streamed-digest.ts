/**
 * Digests of documents too large to hold twice (the catalog of 100,000 products is about
 * 260 MiB): a response body or a parted document's parts on disk are read chunk by chunk
 * into SHA-256 and a byte count, and each chunk may be shown to an observer (the catalog
 * sampler) on the way. Nothing here keeps more than one chunk.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { PartEntry, PartsManifest } from '../../live/bundle-parts.js';

export interface Digest {
  sha256: string;
  bytes: number;
}

export type ChunkObserver = (chunk: Uint8Array) => void;

async function digestChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  observe?: ChunkObserver,
): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    observe?.(chunk);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** One part's bytes as a stream: its file, or the text the manifest holds it as. */
async function* partChunks(dir: string, part: PartEntry, range?: { start: number; end: number }) {
  if (part.path === undefined) {
    const bytes = Buffer.from(part.text ?? '', 'utf8');
    yield range === undefined ? bytes : bytes.subarray(range.start, range.end + 1);
    return;
  }
  for await (const chunk of createReadStream(join(dir, part.path), range)) yield chunk as Buffer;
}

/** The whole document a manifest lists, read part after part from the bundle on disk. */
export function digestParts(dir: string, manifest: PartsManifest, observe?: ChunkObserver): Promise<Digest> {
  async function* parts(): AsyncIterable<Uint8Array> {
    for (const part of manifest.parts) yield* partChunks(dir, part);
  }
  return digestChunks(parts(), observe);
}

/**
 * The entity tag a parted document's parts on disk make: SHA-256 over one `<length> <sha256>`
 * line a part, each part hashed here from its file.
 */
export async function digestOfPartsList(dir: string, manifest: PartsManifest): Promise<string> {
  const lines: string[] = [];
  for (const part of manifest.parts) {
    const digest = await digestChunks(partChunks(dir, part));
    lines.push(`${digest.bytes} ${digest.sha256}\n`);
  }
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** One file of a bundle on disk. */
export function digestFile(path: string): Promise<Digest> {
  return digestChunks(createReadStream(path));
}

export interface StreamedAnswer extends Digest {
  status: number;
  headers: Headers;
}

/** A web stream's chunks (the DOM typings give `ReadableStream` no async iterator). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** GETs `url` and digests its body as it arrives; `limitMs` bounds the whole transfer. */
export async function digestResponse(url: string, limitMs: number): Promise<StreamedAnswer> {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(limitMs) });
  const digest = res.body === null ? await digestChunks([]) : await digestChunks(chunksOf(res.body));
  return { status: res.status, headers: res.headers, ...digest };
}

/** Bytes `[start, end]` of the document a manifest lists, read from its parts on disk (a spot check's expectation). */
export async function readDocumentRange(
  dir: string,
  manifest: PartsManifest,
  start: number,
  end: number,
): Promise<Buffer> {
  const slices: Buffer[] = [];
  let offset = 0;
  for (const part of manifest.parts) {
    const partEnd = offset + part.length - 1;
    if (part.length > 0 && partEnd >= start && offset <= end) {
      const from = Math.max(start, offset) - offset;
      const to = Math.min(end, partEnd) - offset;
      for await (const chunk of partChunks(dir, part, { start: from, end: to })) slices.push(chunk);
    }
    offset += part.length;
  }
  return Buffer.concat(slices);
}
