/**
 * A rebuild after one price changed, with the products on disk (the path of a catalog of
 * 50,000 products and more), walks the products file only for the document made from
 * whole products: each whole walk parses every product again (about 3 s at 100,000
 * products). What needs a few facts of each product (the summary diff, the catalog facts
 * the cache keeps, the catalog's facets, the Google feed's exclusions, the OpenAI feed's
 * row counts, the sitemap's entries) is taken as the products are kept, and the gate
 * reads only the changed ones.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { countStoredReads } from '../../../generator/product-store/stored-products.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { SAMPLE_OPENAI_FEED } from '../../helpers/sample-plan.js';
import { FIXED_NOW, hashTree, makeWorkspace } from '../pipeline/helpers.js';
import { storeBuildOptions, writeStoreConfig, writeStoreProducts } from '../pipeline/synthetic-store.js';

const PRODUCTS = 600;
let dir = '';
let cleanup: () => Promise<void> = async () => {};
let config = '';

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace());
  config = await writeStoreConfig(dir, 'walked', true);
  // Every document that walks the products, the OpenAI feed's shards too.
  const file = join(dir, config);
  const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const agent_feeds = { openai: { ...SAMPLE_OPENAI_FEED, shard_rows: 500 } };
  await writeFile(file, JSON.stringify({ ...written, agent_feeds }));
});
afterEach(() => cleanup());

function inHeap(hours: number, out = 'dist'): BuildOptions {
  return storeBuildOptions(dir, config, { now: new Date(FIXED_NOW.getTime() + hours * 3_600_000), out });
}

function onDisk(hours: number, out = 'dist'): BuildOptions {
  return { ...inHeap(hours, out), productsOnDiskFrom: 0 };
}

describe('a one-price rebuild with the products on disk', () => {
  it('when one price changed then the products file is walked whole once, and the bundle is a cold build’s', async () => {
    const products = makeShopifyProducts(PRODUCTS);
    await writeStoreProducts(dir, products);
    await build(onDisk(0));
    for (const variant of products[321]?.variants ?? []) variant.price = '99.95';
    await writeStoreProducts(dir, products);
    const before = countStoredReads();
    const rebuilt = await build(onDisk(1));
    const after = countStoredReads();
    expect(rebuilt.changes.price.map((change) => change.slug)).toHaveLength(1);
    // The live handler's search index, which is made from whole records.
    expect(after.wholeWalks - before.wholeWalks).toBe(1);
    // What it took as the products were kept is what a cold build in the heap finds.
    const cold = await build(inHeap(1, 'cold'));
    expect(await hashTree(join(dir, 'dist'))).toEqual(await hashTree(join(dir, 'cold')));
    expect(cold.feedExcluded.length).toBeGreaterThan(0);
    expect(rebuilt.feedExcluded).toEqual(cold.feedExcluded);
  });
});
