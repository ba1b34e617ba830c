/**
 * The live handler's variant shards' entries (variant id, product id) kept in a file while
 * the catalog is read once (live/product-shards.ts, `VariantPairs`), so that each variant
 * shard is packed from its own entries instead of parsing every one of its products again
 * from the products on disk. Each shard gathers its entries in a small buffer that is
 * appended to the file as a block when full; only the blocks' places stay in memory (16
 * bytes a block of about 4 KiB), and the buffers of all shards together stay a few MiB at
 * the largest shard counts. Closing the list deletes the file's folder; a build that died
 * leaves it to the next build's sweep (scratch-folder.ts).
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VariantPairs } from '../../live/product-shards.js';
import { makeScratchFolder } from '../scratch-folder.js';

/** A shard's gathered entries are written once they are this long (UTF-16 units, about bytes). */
const BLOCK_CHARS = 4096;

export interface VariantPairsFile extends VariantPairs {
  /** Deletes the file; the entries cannot be read after. Safe to call twice. */
  close(): void;
}

export function createVariantPairsFile(parent: string = tmpdir()): VariantPairsFile {
  const dir = makeScratchFolder('products', parent);
  let fd: number;
  try {
    fd = openSync(join(dir, 'variant-pairs.txt'), 'w+');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const pending = new Map<number, string>();
  // Each shard's blocks as [start, length] pairs, in the order written.
  const blocks = new Map<number, number[]>();
  let end = 0;
  let open = true;
  const write = (shard: number, text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length)
      written += writeSync(fd, bytes, written, bytes.length - written, end + written);
    const places = blocks.get(shard) ?? [];
    places.push(end, bytes.length);
    blocks.set(shard, places);
    end += bytes.length;
  };
  const mustBeOpen = (): void => {
    if (!open) throw new TypeError('the variant pairs file was used after it was closed');
  };
  return {
    add(shard, variantId, productId) {
      mustBeOpen();
      // JSON, so an id holding a tab or a line break cannot split its line.
      const text = `${pending.get(shard) ?? ''}${JSON.stringify([variantId, productId])}\n`;
      if (text.length < BLOCK_CHARS) pending.set(shard, text);
      else {
        pending.delete(shard);
        write(shard, text);
      }
    },
    *of(shard) {
      mustBeOpen();
      const places = blocks.get(shard) ?? [];
      for (let at = 0; at < places.length; at += 2) {
        const bytes = Buffer.allocUnsafe(places[at + 1] ?? 0);
        let read = 0;
        while (read < bytes.length) {
          const got = readSync(fd, bytes, read, bytes.length - read, (places[at] ?? 0) + read);
          if (got === 0) throw new Error('the variant pairs file ended early');
          read += got;
        }
        yield* linesOf(bytes.toString('utf8'));
      }
      yield* linesOf(pending.get(shard) ?? '');
    },
    close() {
      if (!open) return;
      open = false;
      pending.clear();
      blocks.clear();
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function* linesOf(text: string): Generator<readonly [string, string]> {
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const pair: unknown = JSON.parse(line);
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string')
      throw new Error('the variant pairs file is not as written');
    yield [pair[0], pair[1]];
  }
}
