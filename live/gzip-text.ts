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

/** The UTF-8 text of `bytes`, gunzipped first when they are gzip; rejects on a corrupt stream. */
export async function gunzipText(bytes: Uint8Array): Promise<string> {
  if (!isGzip(bytes)) return new TextDecoder().decode(bytes);
  // A copy of the compressed bytes (tens of kilobytes) is what a Blob takes as its own buffer.
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}
