/**
 * The layout of the live handler's data under `_live/` (docs/live.md, "How it is built"):
 * where each kind of shard lives, which shard a key belongs to, and how many shards of
 * each kind a catalog gets. The generator writes the files and the handler reads them
 * with the same functions, so the two never disagree on a path or a shard number.
 *
 * The shard counts are a file budget (issue 30): at 1,000,000 products the three kinds
 * together stay near 11,000 files with no folder over 10,000, so the bundle fits
 * Cloudflare Pages Free (20,000 files a deployment) beside the documents. A key's shard is
 * a hash of the key modulo a power of two, so adding or removing products never moves
 * another product; the count changes only when the catalog has grown or shrunk about
 * twofold past the size it was chosen for (`chooseShardCount`), and then every shard of
 * that kind is rewritten once.
 */

import { fnv1a } from './fnv1a.js';

export const LIVE_DIR = '_live';
export const MANIFEST_PATH = `${LIVE_DIR}/manifest.json`;
/** What says how the product pages are packed (`page-store.ts`); absent when they are files. */
export const PAGES_MANIFEST_PATH = `${LIVE_DIR}/pages.json`;

export type ShardKind = 'pages' | 'products' | 'variants';

/**
 * Products per shard each kind is sized for. Product shards are read up to ten at a time
 * (a page of search results), so they stay the smallest; a product page reads one shard;
 * variant shards hold only pairs of ids.
 */
export const PRODUCTS_PER_SHARD: Readonly<Record<ShardKind, number>> = {
  pages: 512,
  products: 128,
  variants: 1024,
};

const SHARD_FOLDERS: Readonly<Record<ShardKind, string>> = {
  pages: `${LIVE_DIR}/pages`,
  products: `${LIVE_DIR}/products`,
  variants: `${LIVE_DIR}/variants`,
};

/**
 * The kinds whose shards are stored gzipped. A page of search results reads up to ten
 * product shards, and at 1,000,000 products each is about 300 KB of JSON that gzip makes
 * six to fifteen times smaller: the bytes a question moves were what made it slow where
 * assets pass through a proxy (`wrangler pages dev`, 0.1 ms a kilobyte; BENCHMARKS.md).
 * Product pages stay plain: their shard's bytes are served as they are.
 */
const GZIPPED_KINDS: ReadonlySet<ShardKind> = new Set(['products', 'variants']);

/** True when a kind's shards are `.pack.gz` files (gzip of the `.pack` text). */
export function isGzippedShardKind(kind: ShardKind): boolean {
  return GZIPPED_KINDS.has(kind);
}

/**
 * `.pack`: an offset table, then the entries (packed-shard.ts); not JSON as a whole.
 * `.pack.gz`: the same, gzipped.
 */
export function shardPath(kind: ShardKind, shard: number): string {
  return `${SHARD_FOLDERS[kind]}/${shard}.pack${isGzippedShardKind(kind) ? '.gz' : ''}`;
}

/** A file of the search index, by its name inside the index folder (search-partition-format.ts). */
export function indexFilePath(name: string): string {
  return `${LIVE_DIR}/index/${name}`;
}

export function productShardPath(shard: number): string {
  return shardPath('products', shard);
}

export function variantShardPath(shard: number): string {
  return shardPath('variants', shard);
}

export function pageShardPath(shard: number): string {
  return shardPath('pages', shard);
}

/** FNV-1a over UTF-16 code units: the same on every runtime, no crypto needed. */
export function shardOf(id: string, shards: number): number {
  return fnv1a(id) % shards;
}

function isPowerOfTwo(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0 && (value & (value - 1)) === 0;
}

function powerOfTwoAtLeast(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

/**
 * How many shards `products` products get at `perShard` a shard: the power of two that
 * gives each shard between half and all of `perShard`. The previous bundle's count is kept
 * while each shard holds between half and twice `perShard` (hysteresis): a catalog moving
 * around a boundary does not reshard on every build, and one growing tenfold reshards two
 * or three times. Every count is a power of two, so one bundle's shard files are never
 * misread as another sizing's.
 */
export function chooseShardCount(products: number, perShard: number, previous?: number): number {
  if (!Number.isSafeInteger(perShard) || perShard < 1)
    throw new TypeError('perShard must be a positive integer');
  const ideal = powerOfTwoAtLeast(Math.ceil(Math.max(products, 1) / perShard));
  if (previous === undefined || !isPowerOfTwo(previous)) return ideal;
  const load = products / previous;
  return load > perShard / 2 && load <= perShard * 2 ? previous : ideal;
}

export type ShardCounts = Record<ShardKind, number>;

export function chooseShardCounts(products: number, previous: Partial<ShardCounts> = {}): ShardCounts {
  return {
    pages: chooseShardCount(products, PRODUCTS_PER_SHARD.pages, previous.pages),
    products: chooseShardCount(products, PRODUCTS_PER_SHARD.products, previous.products),
    variants: chooseShardCount(products, PRODUCTS_PER_SHARD.variants, previous.variants),
  };
}

/** The shard counts of a bundle from its file list (the previous bundle's, for `chooseShardCounts`). */
export function countShards(paths: Iterable<string>): Partial<ShardCounts> {
  const counts: Partial<ShardCounts> = {};
  const kinds = Object.entries(SHARD_FOLDERS) as [ShardKind, string][];
  for (const path of paths) {
    if (!path.endsWith('.pack') && !path.endsWith('.pack.gz')) continue;
    const kind = kinds.find(([, folder]) => path.startsWith(`${folder}/`))?.[0];
    // A shard stored the other way is a bundle from before the kind's storage changed: not counted.
    if (kind !== undefined && path.endsWith('.gz') === isGzippedShardKind(kind))
      counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * The fewest and the most shards of each kind a bundle of `products` products can have: a
 * fresh build's count, or one kept from a last bundle of another size (`chooseShardCount`'s
 * hysteresis). What the file budget is held to (docs/live.md, `npm run bench`).
 */
export function shardCountRange(products: number): Record<ShardKind, { fewest: number; most: number }> {
  const range = (perShard: number) => {
    const kept: number[] = [];
    for (let previous = 1; previous <= Math.max(products, 1) * 2; previous *= 2) {
      kept.push(chooseShardCount(products, perShard, previous));
    }
    return { fewest: Math.min(...kept), most: Math.max(...kept) };
  };
  return {
    pages: range(PRODUCTS_PER_SHARD.pages),
    products: range(PRODUCTS_PER_SHARD.products),
    variants: range(PRODUCTS_PER_SHARD.variants),
  };
}
