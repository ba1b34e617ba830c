/**
 * The product and variant shards the generator writes for the live handler: each product's
 * UCP form (`toUcpProduct`, computed once at build time) packed by a hash of its id, and
 * each variant id's product id packed by a hash of the variant id (`live-layout.ts` says
 * where and how many; `packed-shard.ts` how). The handler reads one entry of one shard per
 * product it returns, never a whole shard's JSON.
 */
import type { ProductRecord } from '../record/product-record.js';
import { productShardPath, type ShardCounts, shardOf, variantShardPath } from './live-layout.js';
import { type PackEntry, packEntries } from './packed-shard.js';
import { toUcpProduct } from './ucp-product.js';

export interface ShardFile {
  path: string;
  body: string;
}

/** Entries into `count` buckets by a hash of their key. */
function bucket(entries: Iterable<PackEntry>, count: number): PackEntry[][] {
  const buckets = Array.from({ length: count }, (): PackEntry[] => []);
  for (const entry of entries) buckets[shardOf(entry.key, count)]?.push(entry);
  return buckets;
}

function* productEntries(records: readonly ProductRecord[]): Generator<PackEntry> {
  for (const record of records) yield { key: record.id, body: JSON.stringify(toUcpProduct(record)) };
}

function* variantEntries(records: readonly ProductRecord[]): Generator<PackEntry> {
  for (const record of records) {
    for (const variant of record.variants) yield { key: variant.id, body: record.id };
  }
}

export function buildProductShards(
  records: readonly ProductRecord[],
  counts: Pick<ShardCounts, 'products' | 'variants'>,
): ShardFile[] {
  return [
    ...bucket(productEntries(records), counts.products).map((entries, shard) => ({
      path: productShardPath(shard),
      body: packEntries(entries),
    })),
    ...bucket(variantEntries(records), counts.variants).map((entries, shard) => ({
      path: variantShardPath(shard),
      body: packEntries(entries),
    })),
  ];
}
