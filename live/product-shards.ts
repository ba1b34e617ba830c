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
  body: string | Buffer;
}

/**
 * Makes one shard's body: `pack()` packs it here; a build with a cache may instead copy
 * the last build's file when the same records went into it (generator/emit/live-index.ts).
 */
export type ShardPacker = (
  shard: { kind: 'products' | 'variants'; index: number; records: readonly ProductRecord[] },
  pack: () => string,
) => string | Buffer;

const packHere: ShardPacker = (_shard, pack) => pack();

/** Each shard's records, in catalog order, by a hash of the keys a record puts in it. */
function bucketRecords(
  records: readonly ProductRecord[],
  count: number,
  keysOf: (record: ProductRecord) => readonly string[],
): ProductRecord[][] {
  const buckets = Array.from({ length: count }, (): ProductRecord[] => []);
  for (const record of records) {
    for (const key of keysOf(record)) {
      const bucket = buckets[shardOf(key, count)];
      // A record whose keys land in one shard twice is one member of it, once.
      if (bucket !== undefined && bucket.at(-1) !== record) bucket.push(record);
    }
  }
  return buckets;
}

function productEntries(records: readonly ProductRecord[]): PackEntry[] {
  return records.map((record) => ({ key: record.id, body: JSON.stringify(toUcpProduct(record)) }));
}

function variantEntries(records: readonly ProductRecord[], shard: number, count: number): PackEntry[] {
  return records.flatMap((record) =>
    record.variants
      .filter((variant) => shardOf(variant.id, count) === shard)
      .map((variant) => ({ key: variant.id, body: record.id })),
  );
}

export function buildProductShards(
  records: readonly ProductRecord[],
  counts: Pick<ShardCounts, 'products' | 'variants'>,
  packShard: ShardPacker = packHere,
): ShardFile[] {
  const products = bucketRecords(records, counts.products, (record) => [record.id]);
  const variants = bucketRecords(records, counts.variants, (record) =>
    record.variants.map((variant) => variant.id),
  );
  return [
    ...products.map((members, index) => ({
      path: productShardPath(index),
      body: packShard({ kind: 'products', index, records: members }, () =>
        packEntries(productEntries(members)),
      ),
    })),
    ...variants.map((members, index) => ({
      path: variantShardPath(index),
      body: packShard({ kind: 'variants', index, records: members }, () =>
        packEntries(variantEntries(members, index, counts.variants)),
      ),
    })),
  ];
}
