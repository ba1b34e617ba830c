/**
 * Shard files read through the shell's asset reader and kept per isolate, bounded by
 * their total length rather than their number: shards are sized by products, not bytes,
 * and an isolate has 128 MB in all (the handler aims at 64), so the cache holds at most
 * `maxChars` characters, dropping the least recently used shard first. A read that
 * failed is not remembered; the next request tries again.
 */
import type { AssetReader } from './live-context.js';

/** A missing shard: the bundle is broken, and the caller says so (LiveDataError, or a 404). */
export type ShardReader = (path: string) => Promise<string | undefined>;

export function createShardCache(readAsset: AssetReader, maxChars: number): ShardReader {
  const kept = new Map<string, Promise<string | undefined>>();
  const sizes = new Map<string, number>();
  let total = 0;
  const forget = (path: string): void => {
    kept.delete(path);
    total -= sizes.get(path) ?? 0;
    sizes.delete(path);
  };
  return (path) => {
    const hit = kept.get(path);
    if (hit !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      kept.delete(path);
      kept.set(path, hit);
      return hit;
    }
    const read = readAsset(path).then((text) => {
      if (text === undefined) forget(path);
      else if (kept.get(path) === read) {
        sizes.set(path, text.length);
        total += text.length;
        for (const oldest of kept.keys()) {
          if (total <= maxChars || oldest === path) break;
          forget(oldest);
        }
      }
      return text;
    });
    read.catch(() => forget(path));
    kept.set(path, read);
    return read;
  };
}
