/**
 * Work proportional to the change, with the product pages and the live handler's data
 * packed into shards: one changed price rewrites one page shard and one product shard and
 * no variant shard; a new product rewrites the shards it lands in and moves no other
 * product; and a catalog that grows past where a fresh build would choose more shards
 * keeps the last bundle's count while it still fits (no reshard on every build).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { chooseShardCounts, countShards, type ShardCounts } from '../../../live/live-layout.js';
import { makeShopifyProducts, type ShopifyProduct } from '../../fixtures/upstream/make-products.js';
import { FIXED_NOW, hashTree, makeWorkspace } from '../pipeline/helpers.js';
import { storeBuildOptions, writeStoreConfig, writeStoreProducts } from '../pipeline/synthetic-store.js';

const PRODUCTS = 1_500;
let dir = '';
let cleanup: () => Promise<void> = async () => {};

let config = '';
beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace());
  config = await writeStoreConfig(dir, 'sharded', true);
});
afterEach(() => cleanup());

const writeProducts = (products: readonly ShopifyProduct[]) => writeStoreProducts(dir, products);

let hour = 0;
/** Each build an hour after the last. */
function options(): BuildOptions {
  hour += 1;
  return storeBuildOptions(dir, config, { now: new Date(FIXED_NOW.getTime() + hour * 3_600_000) });
}

/** The files of each shard folder whose bytes changed between two bundles (added ones too). */
function changedShards(
  before: Record<string, string>,
  after: Record<string, string>,
): Record<string, string[]> {
  const changed = Object.keys(after).filter((path) => after[path] !== before[path]);
  const under = (folder: string) => changed.filter((path) => path.startsWith(`_live/${folder}/`));
  return { pages: under('pages'), products: under('products'), variants: under('variants') };
}

async function shardCounts(): Promise<Partial<ShardCounts>> {
  return countShards(Object.keys(await hashTree(join(dir, 'dist'))));
}

describe('rebuilding a bundle whose pages and products are packed into shards', () => {
  it('when one price changes then one page shard and one product shard are rewritten, and no variant shard', async () => {
    const products = makeShopifyProducts(PRODUCTS);
    await writeProducts(products);
    await build(options());
    const before = await hashTree(join(dir, 'dist'));
    const changedProduct = products[321];
    for (const variant of changedProduct?.variants ?? []) variant.price = '99.95';
    await writeProducts(products);
    const second = await build(options());
    expect(second.published).toBe(true);
    const changed = changedShards(before, await hashTree(join(dir, 'dist')));
    expect(changed.pages).toHaveLength(1);
    expect(changed.products).toHaveLength(1);
    expect(changed.variants).toEqual([]);
  }, 120_000);

  it('when a product is added then only the shards it lands in change and the counts stay', async () => {
    const products = makeShopifyProducts(PRODUCTS + 1);
    const added = products.pop();
    await writeProducts(products);
    await build(options());
    const counts = await shardCounts();
    const before = await hashTree(join(dir, 'dist'));
    if (added === undefined) throw new Error('no product to add');
    await writeProducts([...products, added]);
    await build(options());
    expect(await shardCounts()).toEqual(counts);
    const changed = changedShards(before, await hashTree(join(dir, 'dist')));
    expect(changed.pages).toHaveLength(1);
    expect(changed.products).toHaveLength(1);
    expect(changed.variants.length).toBeLessThanOrEqual(added.variants.length);
  }, 120_000);

  it("when the catalog grows by 40% then the last bundle's shard counts are kept where a fresh build would choose more", async () => {
    const grown = makeShopifyProducts(2_100);
    await writeProducts(grown.slice(0, PRODUCTS));
    await build(options());
    const first = await shardCounts();
    expect(first).toEqual(chooseShardCounts(PRODUCTS));
    await writeProducts(grown);
    await build(options());
    // A fresh build of 2,100 products would cut them into more product shards.
    expect(chooseShardCounts(2_100).products).toBeGreaterThan(first.products ?? 0);
    expect(await shardCounts()).toEqual(first);
  }, 120_000);
});
