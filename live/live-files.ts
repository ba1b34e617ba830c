/**
 * The files the live handler reads, and how they are laid out in the bundle under
 * `_live/` (docs/live.md): `manifest.json` (the settings and the shard count),
 * `index/` (the search index in partitions the handler reads as a query needs them:
 * search-partition-format.ts names them), `products/<n>.json` (UCP products by product id) and
 * `variants/<n>.json` (variant id → product id). Product data is sharded by a hash of the
 * id, so a lookup or a page of results reads only the few shards it needs, and the
 * handler's cold start at 100,000 products is the index alone. The generator builds them
 * with `buildLiveFiles`; the handler finds a shard with the same `shardOf`.
 */
import type { ProductRecord } from '../record/product-record.js';
import { fnv1a } from './fnv1a.js';
import { buildSearchIndex } from './search-index-file.js';
import {
  buildSearchPartitions,
  DEFAULT_PARTITION_SIZES,
  type PartitionSizes,
} from './search-partitions-file.js';
import { toUcpProduct } from './ucp-product.js';
import type { UcpProduct } from './ucp-types.js';

export const LIVE_DIR = '_live';
export const MANIFEST_PATH = `${LIVE_DIR}/manifest.json`;
/**
 * About this many products per product shard: a page of 10 results reads up to 10 shards,
 * so each is kept small (at 100,000 products 64 per shard made parsing them most of a
 * search's time, docs/live.md). Variant shards hold only id → id pairs and stay larger, to
 * keep the bundle's file count down.
 */
const PRODUCTS_PER_SHARD = 16;
const PRODUCTS_PER_VARIANT_SHARD = 64;

/** A file of the search index, by its name inside the index folder (search-partition-format.ts). */
export function indexFilePath(name: string): string {
  return `${LIVE_DIR}/index/${name}`;
}

export function productShardPath(shard: number): string {
  return `${LIVE_DIR}/products/${shard}.json`;
}

export function variantShardPath(shard: number): string {
  return `${LIVE_DIR}/variants/${shard}.json`;
}

/** What the handler needs to know about the deployment, fixed at build time. */
export interface LiveManifest {
  format: 1;
  /** The build's `generated` time: a new bundle is a new cache key. */
  generated: string;
  /** `{base_url}` path without a trailing slash ("" at the root, "/api" when mounted there). */
  base_path: string;
  site_url: string;
  /** The issuer identifier (`auth_url`): account tools accept its access tokens. */
  auth_url?: string;
  /** `{base_url}/mcp`: the resource identifier the issuer's tokens must name (RFC 8707 `aud`). */
  mcp_endpoint?: string;
  /** Browser origins allowed to call the MCP endpoint besides the site's own and loopback ones. */
  allowed_origins: string[];
  requests_per_minute: number;
  /** The usage-policy fields every document carries (Content-Usage, tdm-reservation…), for the handler's answers too. */
  policy_headers: [name: string, value: string][];
  server: { name: string; title: string; version: string };
  /** The MCP server's instructions: what the catalog is and the usage rules. */
  instructions: string;
  /** How many `products/<n>.json` files there are (a product's is `shardOf(id, shards)`). */
  shards: number;
  /** How many `variants/<n>.json` files there are (a variant's is `shardOf(id, variant_shards)`). */
  variant_shards: number;
  /** How many files under `index/` hold the search index. */
  index_parts: number;
  products: number;
  /**
   * The HTML pages that negotiate Markdown: the page's URL path, the bundle file of its
   * HTML and of its Markdown twin (e.g. `/api/`, `api/index.html`, `api/index.md`).
   */
  markdown_pages?: { path: string; html: string; twin: string }[];
}

export type LiveManifestSettings = Omit<
  LiveManifest,
  'format' | 'shards' | 'variant_shards' | 'index_parts' | 'products'
>;

export interface LiveFile {
  path: string;
  body: string;
}

/** FNV-1a over UTF-16 code units: the same on every runtime, no crypto needed. */
export function shardOf(id: string, shards: number): number {
  return fnv1a(id) % shards;
}

export function buildLiveFiles(
  records: readonly ProductRecord[],
  settings: LiveManifestSettings,
  options: { indexSizes?: Partial<PartitionSizes> } = {},
): LiveFile[] {
  const shards = Math.max(1, Math.ceil(records.length / PRODUCTS_PER_SHARD));
  const variantShardCount = Math.max(1, Math.ceil(records.length / PRODUCTS_PER_VARIANT_SHARD));
  const productShards = Array.from({ length: shards }, (): Record<string, UcpProduct> => ({}));
  const variantShards = Array.from({ length: variantShardCount }, (): Record<string, string> => ({}));
  for (const record of records) {
    const productShard = productShards[shardOf(record.id, shards)];
    if (productShard) productShard[record.id] = toUcpProduct(record);
    for (const variant of record.variants) {
      const variantShard = variantShards[shardOf(variant.id, variantShardCount)];
      if (variantShard) variantShard[variant.id] = record.id;
    }
  }
  const index = buildSearchPartitions(buildSearchIndex(records), {
    ...DEFAULT_PARTITION_SIZES,
    ...options.indexSizes,
  });
  const manifest: LiveManifest = {
    format: 1,
    ...settings,
    shards,
    variant_shards: variantShardCount,
    index_parts: index.length,
    products: records.length,
  };
  return [
    { path: MANIFEST_PATH, body: JSON.stringify(manifest) },
    ...index.map(({ name, body }) => ({ path: indexFilePath(name), body })),
    ...productShards.map((shard, index) => ({ path: productShardPath(index), body: JSON.stringify(shard) })),
    ...variantShards.map((shard, index) => ({ path: variantShardPath(index), body: JSON.stringify(shard) })),
  ];
}
