/**
 * The file budget of issue 30: with the live surface on, a bundle holds at most 20,000
 * files at 1,000,000 products and no folder more than 10,000, with room left for the
 * parted documents (about 4,000 files at that size). A synthetic 2,000-product catalog is
 * built for real; its files are counted by folder and held to what the shard sizing
 * predicts, and the sizing is then asked what the same bundle would hold at 1,000,000
 * products (nothing of that size is built), the largest shard included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { build } from '../../../generator/build.js';
import {
  chooseShardCounts,
  PRODUCTS_PER_SHARD,
  type ShardKind,
  shardCountRange,
} from '../../../live/live-layout.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { FIXED_NOW, makeWorkspace } from '../pipeline/helpers.js';
import { storeBuildOptions, writeStoreConfig, writeStoreProducts } from '../pipeline/synthetic-store.js';

const PRODUCTS = 2_000;
const MILLION = 1_000_000;
const KINDS: readonly ShardKind[] = ['pages', 'products', 'variants'];
/** Issue 30: Cloudflare Pages Free's files a deployment, the folder limit, and the parted documents' share. */
const DEPLOYMENT_FILES = 20_000;
const FOLDER_FILES = 10_000;
const PARTS_RESERVE = 4_000;
const FILE_BYTES = 25 * 1024 * 1024;

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function countByFolder(artifacts: readonly Artifact[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const artifact of artifacts)
    counts.set(folderOf(artifact.path), (counts.get(folderOf(artifact.path)) ?? 0) + 1);
  return counts;
}

describe('the file budget with the live surface on', () => {
  let artifacts: Artifact[] = [];
  let cleanup = async () => {};

  beforeAll(async () => {
    const workspace = await makeWorkspace();
    cleanup = workspace.cleanup;
    await writeStoreProducts(workspace.dir, makeShopifyProducts(PRODUCTS));
    const config = await writeStoreConfig(workspace.dir, 'budget', true);
    const result = await build(storeBuildOptions(workspace.dir, config, { now: FIXED_NOW, write: false }));
    artifacts = result.artifacts;
  }, 120_000);

  afterAll(() => cleanup());

  it('when built then no product has a file of its own, and each kind of shard fills the folder the sizing predicts', () => {
    const folders = countByFolder(artifacts);
    expect(folders.get('kb/products')).toBeUndefined();
    const expected = chooseShardCounts(PRODUCTS);
    for (const kind of KINDS) expect(folders.get(`_live/${kind}`), kind).toBe(expected[kind]);
    // Everything else is a fixed set of documents, whatever the catalog's size.
    const scaling = KINDS.reduce((sum, kind) => sum + expected[kind], 0);
    expect(artifacts.length - scaling).toBeLessThan(100);
  });

  it('when the same bundle is sized for 1,000,000 products then it stays within 20,000 files, 10,000 a folder and 25 MiB a file', () => {
    const folders = countByFolder(artifacts);
    const built = chooseShardCounts(PRODUCTS);
    const fixed = artifacts.length - KINDS.reduce((sum, kind) => sum + built[kind], 0);
    const range = shardCountRange(MILLION);
    // The most files a build can keep at this size (a last bundle's larger count kept).
    const shards = KINDS.reduce((sum, kind) => sum + range[kind].most, 0);
    expect(shards).toBeLessThanOrEqual(12_000);
    expect(fixed + shards + PARTS_RESERVE).toBeLessThanOrEqual(DEPLOYMENT_FILES);
    for (const kind of KINDS) expect(range[kind].most, kind).toBeLessThanOrEqual(FOLDER_FILES);
    const fullestFixedFolder = Math.max(
      ...[...folders].filter(([folder]) => !folder.startsWith('_live/')).map(([, count]) => count),
    );
    expect(fullestFixedFolder).toBeLessThan(FOLDER_FILES);
    // The largest shard at that size: the fewest shards, each at its fullest (twice its size).
    for (const kind of KINDS) {
      const files = artifacts.filter((artifact) => folderOf(artifact.path) === `_live/${kind}`);
      const bytesPerProduct = files.reduce((sum, file) => sum + Buffer.byteLength(file.body), 0) / PRODUCTS;
      const fullest = (MILLION / range[kind].fewest) * bytesPerProduct;
      expect(fullest, kind).toBeLessThan(FILE_BYTES);
      expect(MILLION / range[kind].fewest).toBeLessThanOrEqual(2 * PRODUCTS_PER_SHARD[kind]);
    }
  });
});
