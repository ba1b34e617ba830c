/**
 * The bytes or text of a gzipped bundle file (a `.pack.gz` shard, a search index file),
 * read with the web-standard DecompressionStream that workerd, Deno (Netlify's edge) and
 * Node all have. A host that decodes the file on its way (a CDN answering
 * `Content-Encoding: gzip` to a fetch) hands over the contents themselves: bytes that do
 * not start with gzip's magic number are those contents.
 */

import { concatBytes } from './concat-bytes.js';

/** RFC 1952, 2.3.1: every gzip member starts with these two bytes. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * Bytes a file may unpack to. The largest product shard at 1,000,000 products is about
 * 300 KB, the largest search index file a few megabytes; a file that unpacks past this is
 * not one the build wrote (a gzip bomb, or a file put in its place), and reading on would
 * only fill the isolate's 128 MB.
 */
export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

/**
 * The bytes `bytes` hold, gunzipped first when they are gzip; rejects on a corrupt stream
 * or one that unpacks to more than `maxBytes`.
 */
export async function gunzipBytes(bytes: Uint8Array, maxBytes = MAX_UNPACKED_BYTES): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes;
  // A copy of the compressed bytes (tens of kilobytes) is what a Blob takes as its own buffer.
  const reader = new Blob([new Uint8Array(bytes)])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'))
    .getReader();
  const pieces: Uint8Array[] = [];
  let unpacked = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    unpacked += value.byteLength;
    if (unpacked > maxBytes) {
      await reader.cancel();
      throw new RangeError(`unpacks to more than ${maxBytes} bytes`);
    }
    pieces.push(value);
  }
  return pieces.length === 1 ? (pieces[0] as Uint8Array) : concatBytes(pieces, unpacked);
}

/** The UTF-8 text of `bytes`, gunzipped first when they are gzip (as `gunzipBytes`). */
export async function gunzipText(bytes: Uint8Array, maxBytes = MAX_UNPACKED_BYTES): Promise<string> {
  return new TextDecoder().decode(await gunzipBytes(bytes, maxBytes));
}
