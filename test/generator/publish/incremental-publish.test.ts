import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import {
  FIXED_NOW,
  hashTree,
  makeWorkspace,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});

/**
 * The live surface off: each product's page is a file of its own, as a plain static host
 * serves it. (With it on, the pages are packed into the live handler's shards, whose
 * one-change behaviour `packed-shards-incremental.test.ts` proves.)
 */
async function servePagesAsFiles(): Promise<void> {
  const file = join(dir, 'catalog.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...config, live: { enabled: false } }));
}
afterEach(() => cleanup());

function options(now: Date): BuildOptions {
  return writingBuildOptions(dir, now);
}

async function setPrice(handle: string, price: string): Promise<void> {
  await setUpstreamPrice(dir, handle, price);
}

async function inodes(root: string, paths: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const path of paths) found.set(path, (await stat(join(root, path))).ino);
  return found;
}

describe('publishing a rebuild against the last bundle', () => {
  it('when one price changes an hour later then only changed files are written and every other file is the same file', async () => {
    await servePagesAsFiles();
    const first = await build(options(FIXED_NOW));
    expect(first.files).toEqual({
      written: Object.keys(await hashTree(join(dir, 'dist'))).length,
      unchanged: 0,
      removed: 0,
    });
    const before = await hashTree(join(dir, 'dist'));
    const inodesBefore = await inodes(join(dir, 'dist'), Object.keys(before));

    await setPrice('green-glow', '11.25');
    const second = await build(options(new Date(FIXED_NOW.getTime() + 3_600_000)));
    const after = await hashTree(join(dir, 'dist'));

    const changed = Object.keys(after).filter((path) => after[path] !== before[path]);
    const same = Object.keys(after).filter((path) => after[path] === before[path]);
    expect(second.published).toBe(true);
    expect(second.files).toEqual({ written: changed.length, unchanged: same.length, removed: 0 });
    // Kept, not rewritten: the very same file (inode), so its time and upload stay too.
    const inodesAfter = await inodes(join(dir, 'dist'), same);
    for (const path of same) expect(inodesAfter.get(path), path).toBe(inodesBefore.get(path));
    // No build time in a product's page: only the changed product's page changed.
    expect(changed).toContain('kb/products/green-glow.md');
    expect(same).toEqual(
      expect.arrayContaining(['kb/products/peach-creme.md', 'kb/products/tart-cherry.md']),
    );
  });

  it('when nothing changed then nothing is written and the summary says every file is unchanged', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const again = await build(options(new Date(FIXED_NOW.getTime() + 3_600_000)));
    expect(again.published).toBe(false);
    expect(again.files).toEqual({ written: 0, unchanged: Object.keys(before).length, removed: 0 });
    expect(await hashTree(join(dir, 'dist'))).toEqual(before);
  });

  it('when a product is dropped then its page is counted as removed', async () => {
    await servePagesAsFiles();
    await build(options(FIXED_NOW));
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { products: { handle: string }[] };
    await writeFile(
      file,
      JSON.stringify({ products: data.products.filter((p) => p.handle !== 'tart-cherry') }),
    );
    const result = await build({ ...options(FIXED_NOW), allowShrink: true });
    expect(result.files.removed).toBeGreaterThanOrEqual(1);
    await expect(stat(join(dir, 'dist/kb/products/tart-cherry.md'))).rejects.toThrow();
  });
});
