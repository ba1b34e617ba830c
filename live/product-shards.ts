/**
 * The product and variant shards the generator writes for the live handler: each product's
 * UCP form (`toUcpProduct`, computed once at build time) packed by a hash of its id, and
 * each variant id's product id packed by a hash of the variant id (`live-layout.ts` says
 * where and how many; `packed-shard.ts` how). The handler reads one entry of one shard per
 * product it returns, never a whole shard's JSON.
 *
 * Built in two steps so the catalog never has to be in memory whole (record-source.ts):
 * one pass in catalog order notes each shard's members by their position (`collectShardMembers`),
 * then each shard reads its members back with `at` and is packed, so the records of one
 * shard at most are alive at a time.
 */
import type { ProductRecord } from '../record/product-record.js';
import { productShardPath, type ShardCounts, shardOf, variantShardPath } from './live-layout.js';
import { type PackEntry, packEntries } from './packed-shard.js';
import { numberedRecords, type RecordSource, recordAt } from './record-source.js';
import { toUcpProduct } from './ucp-product.js';

export interface ShardFile {
  path: string;
  body: string | Buffer;
}

export type ShardCountsOf = Pick<ShardCounts, 'products' | 'variants'>;

/** Each shard's members: the catalog positions of its products, ascending, each once. */
export interface ShardMembers {
  readonly products: readonly (readonly number[])[];
  readonly variants: readonly (readonly number[])[];
  /** Each variant shard's entries as they were met, when the collector was given a place for them. */
  readonly variantPairs?: VariantPairs;
}

/**
 * Each variant shard's entries (variant id, product id), kept as the catalog is read so a
 * variant shard is packed without reading its products again: a variant shard needs two
 * ids of each, and a product read back from disk is parsed whole (at 10,000 products the
 * variant shards read 30,000 products). Where they are kept is the builder's choice (the
 * generator keeps them in a file).
 */
export interface VariantPairs {
  add(shard: number, variantId: string, productId: string): void;
  /** The shard's entries in the order they were added. */
  of(shard: number): Iterable<readonly [variantId: string, productId: string]>;
}

/**
 * Makes one shard's body from its members (positions in the catalog): `pack()` reads
 * their records from the source and packs them; a packer that has read the members' records
 * already (a build with a cache, which copies the last build's file when the same products
 * went into it: generator/emit/live-index.ts) passes them, in the members' order, so they are
 * not read twice.
 */
export type ShardPacker = (
  shard: { kind: 'products' | 'variants'; index: number; members: readonly number[] },
  pack: (records?: readonly ProductRecord[]) => string,
) => string | Buffer;

const packHere: ShardPacker = (_shard, pack) => pack();

/** Notes, product by product in catalog order, which shards each one is a member of. */
export interface ShardMembersCollector {
  add(index: number, record: ProductRecord): void;
  readonly members: ShardMembers;
}

export function collectShardMembers(
  counts: ShardCountsOf,
  variantPairs?: VariantPairs,
): ShardMembersCollector {
  const products = Array.from({ length: counts.products }, (): number[] => []);
  const variants = Array.from({ length: counts.variants }, (): number[] => []);
  return {
    members: { products, variants, ...(variantPairs === undefined ? {} : { variantPairs }) },
    add(index, record) {
      products[shardOf(record.id, counts.products)]?.push(index);
      for (const variant of record.variants) {
        const shard = shardOf(variant.id, counts.variants);
        const bucket = variants[shard];
        // A product whose variants land in one shard twice is one member of it, once.
        if (bucket !== undefined && bucket.at(-1) !== index) bucket.push(index);
        variantPairs?.add(shard, variant.id, record.id);
      }
    },
  };
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

/** The members' records: the packer's when it read them, else read from the source now. */
function membersRecords(
  source: RecordSource,
  members: readonly number[],
  given: readonly ProductRecord[] | undefined,
): readonly ProductRecord[] {
  if (given === undefined) return members.map((index) => recordAt(source, index));
  if (given.length !== members.length)
    throw new TypeError(`ShardPacker: ${given.length} records given for ${members.length} members`);
  return given;
}

/**
 * The shards' files, packed one shard at a time from their members' records, each only when
 * it is asked for: a writer that stores each file before asking for the next holds one
 * shard's bytes at a time (at 1,000,000 products the shards together are gigabytes).
 */
export function* packProductShards(
  source: RecordSource,
  members: ShardMembers,
  counts: ShardCountsOf,
  packShard: ShardPacker = packHere,
): Generator<ShardFile> {
  for (const [index, shard] of members.products.entries()) {
    yield {
      path: productShardPath(index),
      body: packShard({ kind: 'products', index, members: shard }, (given) =>
        packEntries(productEntries(membersRecords(source, shard, given))),
      ),
    };
  }
  const pairs = members.variantPairs;
  for (const [index, shard] of members.variants.entries()) {
    yield {
      path: variantShardPath(index),
      body: packShard({ kind: 'variants', index, members: shard }, (given) =>
        packEntries(
          given === undefined && pairs !== undefined
            ? Array.from(pairs.of(index), ([key, body]) => ({ key, body }))
            : variantEntries(membersRecords(source, shard, given), index, counts.variants),
        ),
      ),
    };
  }
}

/** The shards of a source on their own: one pass to find the members, then one shard at a time. */
export function buildProductShards(
  source: RecordSource,
  counts: ShardCountsOf,
  packShard: ShardPacker = packHere,
): ShardFile[] {
  const collector = collectShardMembers(counts);
  for (const [index, record] of numberedRecords(source)) collector.add(index, record);
  return [...packProductShards(source, collector.members, counts, packShard)];
}
