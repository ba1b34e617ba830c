/**
 * Writes one document's text to a new file, syncs it, and reads it back to compare, in
 * slices through two reused buffers. A bundle's big documents are tens of megabytes at
 * 50,000 products; encoding each whole (and reading it back whole) would put two more
 * copies of it beside the bundle in memory at the moment the build's memory peaks.
 */
import { open } from 'node:fs/promises';
import { CatalogError } from '../errors.js';

/** UTF-16 code units per slice; UTF-8 needs at most 3 bytes for each. */
export const SLICE_UNITS = 256 * 1024;

export interface SliceBuffers {
  encoded: Buffer;
  readBack: Buffer;
}

export function allocateSliceBuffers(): SliceBuffers {
  return { encoded: Buffer.alloc(SLICE_UNITS * 3), readBack: Buffer.alloc(SLICE_UNITS * 3) };
}

/** Slice ends that never split a surrogate pair, so each slice encodes on its own. */
function* sliceEnds(text: string): Generator<[number, number]> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE_UNITS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield [start, end];
    start = end;
  }
}

function readBackError(file: string): CatalogError {
  return new CatalogError('PUBLISH_FAILED', `the file read back from ${file} differs from the one written`, {
    file,
  });
}

/** Creates `file` (it must not exist) with `text` as UTF-8, durably, and checks the bytes on disk. */
export async function writeTextVerified(file: string, text: string, buffers: SliceBuffers): Promise<void> {
  const handle = await open(file, 'wx+');
  try {
    let position = 0;
    for (const [start, end] of sliceEnds(text)) {
      const length = buffers.encoded.write(text.slice(start, end), 'utf8');
      await handle.write(buffers.encoded, 0, length, position);
      position += length;
    }
    await handle.sync();
    position = 0;
    for (const [start, end] of sliceEnds(text)) {
      const length = buffers.encoded.write(text.slice(start, end), 'utf8');
      const { bytesRead } = await handle.read(buffers.readBack, 0, length, position);
      if (bytesRead !== length || buffers.readBack.compare(buffers.encoded, 0, length, 0, length) !== 0) {
        throw readBackError(file);
      }
      position += length;
    }
    const { size } = await handle.stat();
    if (size !== position) throw readBackError(file);
  } finally {
    await handle.close();
  }
}

/** Creates `file` (it must not exist) with `bytes`, durably, and checks the bytes on disk. */
export async function writeBytesVerified(file: string, bytes: Buffer): Promise<void> {
  const handle = await open(file, 'wx+');
  try {
    await handle.write(bytes, 0, bytes.length, 0);
    await handle.sync();
    const readBack = Buffer.alloc(bytes.length);
    const { bytesRead } = await handle.read(readBack, 0, bytes.length, 0);
    const { size } = await handle.stat();
    if (bytesRead !== bytes.length || size !== bytes.length || !readBack.equals(bytes))
      throw readBackError(file);
  } finally {
    await handle.close();
  }
}
