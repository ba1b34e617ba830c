/**
 * The Node shell unpacks the bundle's gzipped files (`.gz`: product and variant shards,
 * search index files) with node:zlib before the core sees them. The core's own
 * `DecompressionStream` works on every host, but through Node's web streams it costs about
 * 1.2 ms for an 80 KB price partition where zlib takes 0.45 ms (BENCHMARKS.md), and zlib's
 * asynchronous gunzip runs off the event loop. The core reads bytes without gzip's magic
 * number as the file's contents; a file that does not unpack is handed over as it is, for
 * the core to report as a broken bundle.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { MAX_UNPACKED_BYTES } from '../gzip-text.js';
import type { AssetBytesReader } from '../live-context.js';

const gunzipAsync = promisify(gunzip);

/** `read`, with each `.gz` file's bytes unpacked (bounded as the core bounds them). */
export function unpackingGzip(read: AssetBytesReader): AssetBytesReader {
  return async (path) => {
    const bytes = await read(path);
    if (bytes === undefined || !path.endsWith('.gz')) return bytes;
    try {
      const unpacked = await gunzipAsync(bytes, { maxOutputLength: MAX_UNPACKED_BYTES });
      return new Uint8Array(unpacked.buffer, unpacked.byteOffset, unpacked.byteLength);
    } catch {
      return bytes;
    }
  };
}
