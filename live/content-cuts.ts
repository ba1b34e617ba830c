/**
 * Where the search index's partitions start (search-partitions-file.ts cuts the terms and
 * vocabulary, search-column-partitions.ts the prices): by content, so a changed product moves
 * its own items between partitions and leaves the other boundaries and names as they were.
 */
import { fnv1a } from './fnv1a.js';

/** A file of the index: its name inside the index folder and its JSON text or its bytes (`.bin`). */
export interface IndexFile {
  name: string;
  body: string | Uint8Array;
}

/**
 * The first item of each partition: a partition starts before an item whose hash is a
 * multiple of the stride (so the boundary depends on that item alone), or where the
 * partition would pass twice its target. An item larger than the target (a word most
 * products carry) is a partition of its own, so a query for a rare word never reads a
 * common one's postings. The stride makes the mean size of the other partitions the target.
 */
export function contentCuts(
  count: number,
  hashAt: (item: number) => number,
  sizeAt: (item: number) => number,
  target: number,
): number[] {
  if (count === 0) return [];
  let total = 0;
  let small = 0;
  for (let item = 0; item < count; item += 1) {
    const itemSize = sizeAt(item);
    if (itemSize > target) continue;
    total += itemSize;
    small += 1;
  }
  const mean = Math.max(total / Math.max(1, small), 1e-9);
  const stride = 2 ** Math.min(30, Math.max(0, Math.round(Math.log2(target / mean))));
  const starts = [0];
  let size = 0;
  let previousAlone = false;
  for (let item = 0; item < count; item += 1) {
    const itemSize = sizeAt(item);
    const alone = itemSize > target;
    if (item > 0 && (alone || previousAlone || hashAt(item) % stride === 0 || size + itemSize > 2 * target)) {
      starts.push(item);
      size = 0;
    }
    size += itemSize;
    previousAlone = alone;
  }
  return starts;
}

/**
 * A partition's name: the hash of its first item's key in base 36, with a suffix should two
 * hash alike, so it stays the same while that item starts the partition.
 */
export function contentNames(keys: readonly string[]): string[] {
  const taken = new Set<string>();
  return keys.map((key) => {
    const base = fnv1a(key).toString(36);
    let name = base;
    for (let suffix = 1; taken.has(name); suffix += 1) name = `${base}-${suffix}`;
    taken.add(name);
    return name;
  });
}

/** Where each partition of a list starts, its first item and its name. */
export interface Cuts<First> {
  starts: number[];
  firsts: First[];
  names: string[];
}
