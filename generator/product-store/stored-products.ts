/**
 * The plan's products kept on disk instead of in the heap: one line per product, its
 * digest and its JSON, written once after the products are dated, then read back one at a
 * time by every emitter's walk (`for…of`, a buffered sequential read) or by index (`at`,
 * one positioned read, which reads the next lines too when asked in order). Only the lines' offsets stay in memory (8 bytes a product), with
 * each product's slug and digest (`keyColumn`, about 60 bytes a product), so that what is
 * looked up by them (a cached fragment, a packed shard) reads no product.
 *
 * A product read back is a new object each time, equal to the one written: nothing may
 * rely on its identity. Its digest comes back with it (`rememberDigest`), so the build
 * cache never hashes it again.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestOfProduct, rememberDigest } from '../cache/product-digest.js';
import type { PlannedProduct, PlannedProducts, ProductKeyColumn } from '../plan.js';
import { makeScratchFolder } from '../scratch-folder.js';
import { KeyColumnWriter } from './product-keys.js';

/** Bytes read per call by a walk, and written per call: large enough that calls cost nothing. */
const CHUNK_BYTES = 1 << 20;
/**
 * Bytes `at` reads ahead when asked for the product after the one it just read: documents
 * made of one fragment per product ask for every product in order (four of them at 10,000
 * products, one read per product each), and a product is about 2 KiB, so one read then
 * serves about 30. Asked out of order (the shards, by hash), it reads the one line.
 */
const READ_AHEAD_BYTES = 64 * 1024;
/** A line is `<64 hex digits>\t<JSON>\n`. */
const DIGEST_LENGTH = 64;
const NEWLINE = 0x0a;

export interface StoredProducts extends PlannedProducts {
  /** Deletes the file; the list cannot be read after. Safe to call twice. */
  close(): void;
}

/**
 * Writes `products` (in plan order) to a new file in a folder of its own under the
 * system's temporary folder and returns the list that reads them back. Closing the list
 * deletes the folder; one a build left when it died, the next build removes (scratch-folder.ts).
 */
export function storeProducts(products: Iterable<PlannedProduct>, parent: string = tmpdir()): StoredProducts {
  const dir = makeScratchFolder('products', parent);
  const path = join(dir, 'products.txt');
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w+');
    const keys = new KeyColumnWriter();
    const offsets = writeLines(fd, products, keys);
    return readBack(fd, dir, offsets, keys.finish());
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function writeLines(fd: number, products: Iterable<PlannedProduct>, keys: KeyColumnWriter): Float64Array {
  let offsets = new Float64Array(1024);
  let count = 0;
  let position = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    const bytes = Buffer.concat(pending, pendingBytes);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    pending = [];
    pendingBytes = 0;
  };
  for (const product of products) {
    const line = Buffer.from(`${digestOfProduct(product)}\t${JSON.stringify(product)}\n`, 'utf8');
    keys.add(product);
    if (count + 1 >= offsets.length) {
      const grown = new Float64Array(offsets.length * 2);
      grown.set(offsets);
      offsets = grown;
    }
    offsets[count] = position;
    count += 1;
    position += line.length;
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= CHUNK_BYTES) flush();
  }
  flush();
  offsets[count] = position;
  return offsets.slice(0, count + 1);
}

/** What the stored lists of this process have read back so far. */
export interface StoredReads {
  /** Products parsed, by walks and by `at` alike. */
  products: number;
  /** Walks that went through every product of their list. */
  wholeWalks: number;
  /** Reads of a products file (system calls), by walks and by `at` alike. */
  fileReads: number;
}

const reads: StoredReads = { products: 0, wholeWalks: 0, fileReads: 0 };

/**
 * A copy of the counts of reads: what a big catalog's build pays for its walks, each
 * parsing every product again (a test holds a rebuild to its count of walks).
 */
export function countStoredReads(): StoredReads {
  return { ...reads };
}

/** The product of one line's bytes, its digest remembered for the build cache. */
function parseLine(bytes: Buffer, start: number, end: number): PlannedProduct {
  reads.products += 1;
  const digest = bytes.toString('latin1', start, start + DIGEST_LENGTH);
  const product = JSON.parse(bytes.toString('utf8', start + DIGEST_LENGTH + 1, end)) as PlannedProduct;
  rememberDigest(product, digest);
  return product;
}

function readBack(
  fd: number,
  dir: string,
  offsets: Float64Array,
  keyColumn: ProductKeyColumn,
): StoredProducts {
  const length = offsets.length - 1;
  let open = true;
  const mustBeOpen = () => {
    if (!open) throw new TypeError('the stored products were read after their build closed them');
  };
  const readRange = (into: Buffer, bytes: number, position: number): void => {
    let read = 0;
    while (read < bytes) {
      reads.fileReads += 1;
      const got = readSync(fd, into, read, bytes - read, position + read);
      if (got === 0) throw new Error('the stored products file ended early');
      read += got;
    }
  };
  // What `at` read last: the bytes of the file from `windowStart` to `windowEnd`.
  let scratch = Buffer.allocUnsafe(READ_AHEAD_BYTES);
  let windowStart = 0;
  let windowEnd = 0;
  let lastIndex = -1;
  return {
    length,
    keyColumn,
    at(index) {
      mustBeOpen();
      if (!Number.isInteger(index) || index < 0 || index >= length) return undefined;
      const start = offsets[index] ?? 0;
      const end = offsets[index + 1] ?? start;
      const next = index === lastIndex + 1;
      lastIndex = index;
      if (start < windowStart || end > windowEnd) {
        // This line and, when reading in order, the whole lines after it that fit.
        let last = index;
        if (next) while (last + 1 < length && (offsets[last + 2] ?? 0) - start <= READ_AHEAD_BYTES) last += 1;
        const until = offsets[last + 1] ?? end;
        if (scratch.length < until - start) scratch = Buffer.allocUnsafe(until - start);
        readRange(scratch, until - start, start);
        windowStart = start;
        windowEnd = until;
      }
      const from = start - windowStart;
      if (scratch[end - windowStart - 1] !== NEWLINE)
        throw new Error('the stored products file is not as written');
      // The line without its newline.
      return parseLine(scratch, from, end - windowStart - 1);
    },
    *[Symbol.iterator]() {
      mustBeOpen();
      // A buffer of its own: a walk may call `at` between two products.
      let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let index = 0;
      while (index < length) {
        mustBeOpen();
        const start = offsets[index] ?? 0;
        // As many whole lines as fit in the buffer, or the one line that does not.
        let last = index;
        while (last + 1 < length && (offsets[last + 2] ?? 0) - start <= buffer.length) last += 1;
        const end = offsets[last + 1] ?? start;
        if (end - start > buffer.length) buffer = Buffer.allocUnsafe(end - start);
        readRange(buffer, end - start, start);
        for (let at = index; at <= last; at += 1) {
          const from = (offsets[at] ?? 0) - start;
          const to = (offsets[at + 1] ?? 0) - start;
          if (buffer[to - 1] !== NEWLINE) throw new Error('the stored products file is not as written');
          yield parseLine(buffer, from, to - 1);
        }
        index = last + 1;
      }
      reads.wholeWalks += 1;
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
