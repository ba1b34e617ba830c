/**
 * A numbered list of JSON values kept in a file instead of the heap, for the normaliser's
 * products of a big catalog (product-shelf.ts): appended one at a time as they are mapped,
 * replaced by number (a newer copy of a product appends its line and points its number at
 * it; the old line stays in the file, unread), and read back by number with one positioned
 * read. Only each value's place in the file stays in memory (16 bytes a value).
 *
 * A value read back is a new object each time, equal to the one written (a JSON round
 * trip): nothing may rely on its identity.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeScratchFolder } from '../scratch-folder.js';

/** Bytes gathered before one write: large enough that calls cost nothing. */
const CHUNK_BYTES = 1 << 20;

export interface RecordFile<T> {
  readonly length: number;
  /** Appends `value` as the next number. */
  push(value: T): void;
  /** Makes `index` (one already pushed) read as `value` from now on. */
  set(index: number, value: T): void;
  at(index: number): T | undefined;
  /** Deletes the file; the list cannot be read after. Safe to call twice. */
  close(): void;
}

function grow(array: Float64Array<ArrayBuffer>, least: number): Float64Array<ArrayBuffer> {
  if (least <= array.length) return array;
  const grown = new Float64Array(Math.max(least, array.length * 2));
  grown.set(array);
  return grown;
}

/**
 * A new, empty file in a folder of its own under `parent` (the system's temporary folder
 * unless told): closing the list deletes the folder; a process that dies leaves it to the
 * next build's sweep (scratch-folder.ts).
 */
export function createRecordFile<T>(parent: string = tmpdir()): RecordFile<T> {
  const dir = makeScratchFolder('products', parent);
  let fd: number | undefined;
  try {
    fd = openSync(join(dir, 'records.txt'), 'w+');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return recordsIn(fd, dir);
}

function recordsIn<T>(fd: number, dir: string): RecordFile<T> {
  let starts = new Float64Array(1024);
  let sizes = new Float64Array(1024);
  let length = 0;
  let end = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let open = true;
  let scratch = Buffer.allocUnsafe(64 * 1024);
  const mustBeOpen = () => {
    if (!open) throw new TypeError('the products file was used after it was closed');
  };
  const flush = () => {
    if (pendingBytes === 0) return;
    const bytes = Buffer.concat(pending, pendingBytes);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    pending = [];
    pendingBytes = 0;
  };
  /** Appends the value's line and returns where it starts and how long it is. */
  const append = (value: T): [number, number] => {
    mustBeOpen();
    const line = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    const at = end;
    end += line.length;
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= CHUNK_BYTES) flush();
    return [at, line.length - 1];
  };
  return {
    get length() {
      return length;
    },
    push(value) {
      const [start, size] = append(value);
      starts = grow(starts, length + 1);
      sizes = grow(sizes, length + 1);
      starts[length] = start;
      sizes[length] = size;
      length += 1;
    },
    set(index, value) {
      if (!Number.isInteger(index) || index < 0 || index >= length)
        throw new TypeError(`the products file has no record ${index} of ${length} to replace`);
      const [start, size] = append(value);
      starts[index] = start;
      sizes[index] = size;
    },
    at(index) {
      mustBeOpen();
      if (!Number.isInteger(index) || index < 0 || index >= length) return undefined;
      // A line still gathered for writing is read from the file like any other.
      flush();
      const start = starts[index] ?? 0;
      const size = sizes[index] ?? 0;
      if (scratch.length < size) scratch = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const got = readSync(fd, scratch, read, size - read, start + read);
        if (got === 0) throw new Error('the products file ended early');
        read += got;
      }
      return JSON.parse(scratch.toString('utf8', 0, size)) as T;
    },
    close() {
      if (!open) return;
      open = false;
      pending = [];
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
