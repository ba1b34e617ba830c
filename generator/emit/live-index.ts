/**
 * The live handler's data (docs/live.md): the search index, the UCP products sharded by
 * id, the variant → product map and the manifest with the deployment's settings and the
 * MCP server's instructions, all under `_live/` in the bundle. The handler reads them
 * through its shell's asset reader; nothing here is a public document. Emitted only when
 * `live.enabled` is on.
 */
import { mcpEndpointOf } from '../../access-token/resource-urls.js';
import { LIVE_DIR, type LiveManifestSettings, liveFiles } from '../../live/live-files.js';
import type { ShardPacker } from '../../live/product-shards.js';
import type { RecordSource } from '../../live/record-source.js';
import type { Artifact } from '../artifact.js';
import { isGzipPath } from '../bundle-file-encoding.js';
import { bytesArtifact } from '../compact-artifact.js';
import type { BuildPlan, PlannedProduct } from '../plan.js';
import { createVariantPairsFile } from '../product-store/variant-pairs-file.js';
import { shardKey } from './fragments.js';
import { markdownTwins } from './markdown-twins.js';
import { filePathOf } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';

/** The handler's data files: read by the handler, not documents the hosting rules publish. */
export function isLiveData(artifact: Pick<Artifact, 'path'>): boolean {
  return artifact.path.startsWith(`${LIVE_DIR}/`);
}

/**
 * The live handler's files, each made only when the bundle's writer asks for the next one:
 * written and let go one at a time, the shards are never held together (at 1,000,000
 * products they were gigabytes of bytes waiting for the last shard).
 */
export function* emitLiveIndex(plan: BuildPlan): Generator<Artifact> {
  if (!plan.config.live.enabled) return;
  const { products } = plan;
  // Read a product at a time (`length`, `at`, `for…of` only): the plan's products may be a
  // list on disk that parses a fresh object on every read, so nothing here keys on identity.
  const records: RecordSource = {
    length: products.length,
    at: (index) => products.at(index)?.record,
    *[Symbol.iterator]() {
      for (const product of products) yield product.record;
    },
  };
  // A shard whose products all kept their digests is copied from the last build; the count
  // is in the kind, so shards cut another way are never mistaken for these.
  // The shard's products are read only when it is packed again.
  // A variant shard is packed from the entries noted as the catalog was read (with the
  // products on disk, where reading its members again would parse each one whole).
  const packShard: ShardPacker = ({ kind, index, members }, pack) =>
    plan.fragments.whole(
      `live-${kind}/shards-${kind === 'products' ? plan.shards.products : plan.shards.variants}`,
      shardKey(index),
      products,
      members,
      () =>
        kind === 'variants' && variantPairs !== undefined
          ? pack()
          : pack(members.map((member) => plannedAt(plan, member).record)),
    );
  const variantPairs = products.keyColumn === undefined ? undefined : createVariantPairsFile();
  try {
    const options = {
      shards: plan.shards,
      packShard,
      ...(variantPairs === undefined ? {} : { variantPairs }),
    };
    for (const file of liveFiles(records, liveSettings(plan), options)) {
      // A `.pack.gz` shard's text, compressed by the writer only when it changed.
      const meta = {
        path: file.path,
        mediaType: mediaTypeOf(file.path),
        ...(isGzipPath(file.path) ? { encoding: 'gzip' as const } : {}),
      };
      if (typeof file.body === 'string') {
        yield { ...meta, body: file.body };
        continue;
      }
      const { buffer, byteOffset, byteLength } = file.body;
      yield bytesArtifact(
        meta,
        Buffer.isBuffer(file.body) ? file.body : Buffer.from(buffer, byteOffset, byteLength),
      );
    }
  } finally {
    variantPairs?.close();
  }
}

function plannedAt(plan: BuildPlan, index: number): PlannedProduct {
  const planned = plan.products.at(index);
  if (planned === undefined)
    throw new TypeError(`emitLiveIndex: no planned product at ${index} of ${plan.products.length}`);
  return planned;
}

/** The search index's `.bin` files are bytes no reader should take for text. */
function mediaTypeOf(path: string): string {
  if (path.endsWith('.json')) return 'application/json';
  if (isGzipPath(path)) return 'application/gzip';
  return path.endsWith('.bin') ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

function liveSettings(plan: BuildPlan): LiveManifestSettings {
  const { config } = plan;
  const policy = resolveUsagePolicy(config);
  return {
    generated: plan.generated,
    base_path: new URL(config.base_url).pathname.replace(/\/+$/, ''),
    site_url: config.site_url,
    auth_url: config.auth_url,
    mcp_endpoint: mcpEndpointOf(config.base_url),
    allowed_origins: config.live.allowed_origins.map((url) => new URL(url).origin),
    requests_per_minute: policy.requestsPerMinute,
    policy_headers: policy.headers,
    server: {
      name: `${config.merchant.slug}-catalog`,
      title: `${config.merchant.name} catalog`,
      version: plan.generated,
    },
    instructions: describeInstructions(plan),
    markdown_pages: markdownTwins(config).map(({ page, twin }) => ({
      path: page,
      html: filePathOf(page),
      twin: filePathOf(twin),
    })),
  };
}

/** What an agent should know before its first call: what this is, and the usage rules. */
function describeInstructions(plan: BuildPlan): string {
  const { config } = plan;
  const policy = resolveUsagePolicy(config);
  return [
    `The product catalog of ${config.merchant.name} (${config.merchant.url}), read-only: search_catalog finds products by text and filters, lookup_catalog and get_product return them by product or variant id. Prices are integers in minor units of ${config.merchant.currency}.`,
    'Link each product you mention to its url, and name the merchant.',
    ...policy.rules.map((rule) => rule.text),
  ].join('\n');
}
