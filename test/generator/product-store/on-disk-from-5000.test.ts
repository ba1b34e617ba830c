/**
 * Where a mid-sized catalog's products live by default. At 10,000 products the records in
 * the heap were what V8's heap held at the build's peak (BENCHMARKS.md, "the
 * 10,000-product build near 300 MB"), so from 5,000 products they are kept on disk.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import { writeShopifyFixture } from '../../fixtures/upstream/write-products.js';
import { FIXED_NOW, makeWorkspace, writingBuildOptions } from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(async () => {
  await cleanup();
});

describe('the default place of the plan products', () => {
  it('when the store has 5,000 products then the build keeps them on disk, not in the heap', async () => {
    await writeShopifyFixture(join(dir, 'upstream/products.json'), 5_000);
    // The sample's content files name its own products, none of these.
    await rm(join(dir, 'content/products'), { recursive: true, force: true });
    const result = await build(writingBuildOptions(dir, FIXED_NOW));
    expect(result.plan.catalog.count).toBe(5_000);
    // In the heap they are an array; on disk a view over the file the build has deleted.
    expect(Array.isArray(result.plan.products)).toBe(false);
  }, 120_000);
});
