/**
 * The files the live handler reads, and how they are laid out in the bundle under
 * `_live/` (docs/live.md): `manifest.json` (the settings and the shard counts),
 * `index/` (the search index in partitions the handler reads as a query needs them:
 * search-partition-format.ts names them), `products/<n>.pack.gz` (UCP products by product id) and
 * `variants/<n>.pack.gz` (variant id → product id), packed shards (`packed-shard.ts`), gzipped, whose
 * number `live-layout.ts` chooses. A lookup or a page of results reads one entry of a few
 * shards, and the handler's cold start is the index's root alone. The generator builds them with
 * `buildLiveFiles`; the handler finds a shard with the same `shardOf`.
 *
 * The catalog comes as a `RecordSource` (record-source.ts), read once in order for the index
 * and each shard's members, then a shard's members at a time: no record is kept past its use.
 */
import { chooseShardCounts, indexFilePath, MANIFEST_PATH, type ShardCounts } from './live-layout.js';
import {
  collectShardMembers,
  packProductShards,
  type ShardMembersCollector,
  type ShardPacker,
  type VariantPairs,
} from './product-shards.js';
import { numberedRecords, type RecordSource } from './record-source.js';
import { buildSearchIndexOfRows, type SearchRow, searchRowOf } from './search-index-file.js';
import {
  DEFAULT_PARTITION_SIZES,
  type PartitionSizes,
  type SearchPartitions,
  searchPartitions,
} from './search-partitions-file.js';

export {
  indexFilePath,
  LIVE_DIR,
  MANIFEST_PATH,
  productShardPath,
  shardOf,
  variantShardPath,
} from './live-layout.js';

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
  /** How many `products/<n>.pack.gz` files there are (a product's is `shardOf(id, shards)`). */
  shards: number;
  /** How many `variants/<n>.pack.gz` files there are (a variant's is `shardOf(id, variant_shards)`). */
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
  /** Text, or bytes: a packed shard's UTF-8, or a search index `.bin` file. */
  body: string | Uint8Array;
}

/** Every live file at once (tests, and callers that keep them all anyway); see `liveFiles`. */
export function buildLiveFiles(
  records: RecordSource,
  settings: LiveManifestSettings,
  options: LiveFilesOptions = {},
): LiveFile[] {
  return [...liveFiles(records, settings, options)];
}

export interface LiveFilesOptions {
  indexSizes?: Partial<PartitionSizes>;
  shards?: Pick<ShardCounts, 'products' | 'variants'>;
  packShard?: ShardPacker;
  /** Where the variant shards' entries are kept as the catalog is read; without it they are read again. */
  variantPairs?: VariantPairs;
}

/**
 * The live files one at a time: the manifest and the search index once the catalog has been
 * read, then each shard packed only when asked for, so a writer that stores each file before
 * asking for the next never holds the shards together (gigabytes at 1,000,000 products).
 */
export function* liveFiles(
  records: RecordSource,
  settings: LiveManifestSettings,
  options: LiveFilesOptions = {},
): Generator<LiveFile> {
  const counts = options.shards ?? chooseShardCounts(records.length);
  const collector = collectShardMembers(counts, options.variantPairs);
  // One read of the catalog feeds both the index and the shards' members.
  let index: SearchPartitions | undefined = searchPartitions(
    buildSearchIndexOfRows(records.length, rowsNotingMembers(records, collector)),
    { ...DEFAULT_PARTITION_SIZES, ...options.indexSizes },
  );
  const manifest: LiveManifest = {
    format: 1,
    ...settings,
    shards: counts.products,
    variant_shards: counts.variants,
    index_parts: index.length,
    products: records.length,
  };
  yield { path: MANIFEST_PATH, body: JSON.stringify(manifest) };
  for (const { name, body } of index.files()) yield { path: indexFilePath(name), body };
  // Let the index go before the shards are packed: this frame lives until the last shard.
  index = undefined;
  yield* packProductShards(records, collector.members, counts, options.packShard);
}

/** Each record's search row, noting on the way which shards the record is a member of. */
function* rowsNotingMembers(records: RecordSource, collector: ShardMembersCollector): Generator<SearchRow> {
  for (const [index, record] of numberedRecords(records)) {
    collector.add(index, record);
    yield searchRowOf(record);
  }
}
