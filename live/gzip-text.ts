/**
 * The text of a gzipped bundle file (a `.pack.gz` shard), read with the web-standard
 * DecompressionStream that workerd, Deno (Netlify's edge) and Node all have. A host that
 * decodes the file on its way (a CDN answering `Content-Encoding: gzip` to a fetch) hands
 * over the text itself: bytes that do not start with gzip's magic number are that text.
 */

/** RFC 1952, 2.3.1: every gzip member starts with these two bytes. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * Bytes a shard may unpack to. The largest product shard at 1,000,000 products is about
 * 300 KB; a shard that unpacks past this is not one the build wrote (a gzip bomb, or a
 * file put in its place), and reading on would only fill the isolate's 128 MB.
 */
export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

/**
 * The UTF-8 text of `bytes`, gunzipped first when they are gzip; rejects on a corrupt
 * stream or one that unpacks to more than `maxBytes`.
 */
export async function gunzipText(bytes: Uint8Array, maxBytes = MAX_UNPACKED_BYTES): Promise<string> {
  if (!isGzip(bytes)) return new TextDecoder().decode(bytes);
  // A copy of the compressed bytes (tens of kilobytes) is what a Blob takes as its own buffer.
  const reader = new Blob([new Uint8Array(bytes)])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'))
    .getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let unpacked = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    unpacked += value.byteLength;
    if (unpacked > maxBytes) {
      await reader.cancel();
      throw new RangeError(`unpacks to more than ${maxBytes} bytes`);
    }
    pieces.push(decoder.decode(value, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join('');
}
