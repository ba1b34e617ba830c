/**
 * Bytes to base64 text and back, so the generator writes and every edge runtime reads the
 * search index's packed columns the same way. Where Node's `Buffer` is there (preview,
 * `serve`, the Netlify function), it decodes natively; elsewhere (a Worker) `atob` does,
 * and a loop copies its characters out. Node's `atob` is a JavaScript function, and with
 * that copy it was a tenth of a search's CPU at 1,000,000 products (BENCHMARKS.md).
 */

/** Bytes per String.fromCharCode call: well below every engine's argument limit. */
const CHUNK = 0x8000;

/** What this module needs of Node's `Buffer`, looked up on `globalThis` so a Worker bundle needs no Node types. */
interface NodeBase64 {
  from(text: string, encoding: 'base64'): Uint8Array;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}
const nodeBuffer = (globalThis as { Buffer?: NodeBase64 }).Buffer;

/**
 * The bytes as padded base64 text. Node's `Buffer` encodes natively (the generator writes
 * the search index's postings this way: `btoa` is JavaScript in Node too, and spreading the
 * bytes into strings first cost more than the encoding); a Worker uses `btoa`.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  if (nodeBuffer) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}

/**
 * The bytes of a base64 text, in an array of their own (never a view into a shared pool, so
 * a cache counts and frees exactly them); a `TypeError` when the text is not base64. Node's
 * decoder skips what it cannot read, so a text it read in part gives fewer bytes than its
 * length says; a regular expression over the text, or encoding the bytes again to compare,
 * cost ten to fifty times the decode. (It reads `-` and `_` as `+` and `/`: bytes changed
 * that way are left to the structural checks of each file, as any other changed byte is.)
 */
export function base64ToBytes(text: string): Uint8Array {
  if (nodeBuffer) {
    const decoded = nodeBuffer.from(text, 'base64');
    if (text.length % 4 !== 0 || decoded.length !== decodedLength(text)) {
      throw new TypeError(`a base64 text of ${text.length} characters does not decode whole`);
    }
    // Node hands out small buffers as views into one shared 8 KiB pool.
    return decoded.byteOffset === 0 && decoded.byteLength === decoded.buffer.byteLength
      ? new Uint8Array(decoded.buffer, 0, decoded.byteLength)
      : new Uint8Array(decoded);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** How many bytes a padded base64 text of this length holds. */
function decodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}
