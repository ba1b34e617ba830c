import { readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, type BuildResult, build } from '../../../generator/build.js';
import { CACHE_FORMAT, createBuildCache } from '../../../generator/cache/build-cache-file.js';
import {
  FIXED_NOW,
  hashTree,
  humanSummaryOf,
  makeWorkspace,
  publishedProductLastmods,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const AN_HOUR_LATER = new Date(FIXED_NOW.getTime() + 3_600_000);
const TWO_HOURS_LATER = new Date(FIXED_NOW.getTime() + 7_200_000);

let dir = '';
let cleanup: () => Promise<void> = async () => {};

/** The sample shop without the store's `updated_at`: every lastmod then comes from the cache. */
async function dropUpstreamTimes(): Promise<void> {
  const file = join(dir, 'upstream/products.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { products: Record<string, unknown>[] };
  for (const product of data.products) delete product.updated_at;
  await writeFile(file, JSON.stringify(data));
}

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
  await dropUpstreamTimes();
});
afterEach(() => cleanup());

function cacheFile(): string {
  return join(dir, '.dist-cache', 'build-cache.sqlite');
}

function options(now: Date): BuildOptions {
  return writingBuildOptions(dir, now);
}

async function setPrice(handle: string, price: string): Promise<void> {
  await setUpstreamPrice(dir, handle, price);
}

function readCacheRows(): { slug: string; digest: string; lastmod: string }[] {
  const db = new Database(cacheFile(), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT slug, digest, lastmod FROM products ORDER BY slug').all() as {
      slug: string;
      digest: string;
      lastmod: string;
    }[];
  } finally {
    db.close();
  }
}

/** A rebuild where nothing changed: nothing in the bundle is written, whatever the cache's state. */
async function expectNothingWritten(result: BuildResult, before: Record<string, string>): Promise<void> {
  expect(result.changed).toBe(false);
  expect(result.published).toBe(false);
  expect(result.files.written).toBe(0);
  expect(await hashTree(join(dir, 'dist'))).toEqual(before);
}

describe('the build cache beside the bundle', () => {
  it('when the first build publishes then it creates the cache with one row per product', async () => {
    const result = await build(options(FIXED_NOW));
    expect(result.cache.state).toBe('created');
    const rows = readCacheRows();
    expect(rows.map((row) => row.slug)).toEqual([...result.plan.products].map((p) => p.record.slug).sort());
    expect(rows.every((row) => row.lastmod === FIXED_NOW.toISOString())).toBe(true);
    expect(new Set(rows.map((row) => row.digest)).size).toBe(rows.length);
    // Kept out of the bundle, so no host uploads it and no publish removes it.
    expect(Object.keys(await hashTree(join(dir, 'dist'))).some((path) => path.endsWith('.sqlite'))).toBe(
      false,
    );
  });

  it('when nothing changed then the cache is used and neither the bundle nor the cache is written', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const cacheBefore = await stat(cacheFile());
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache).toEqual({ state: 'used' });
    await expectNothingWritten(again, before);
    const cacheAfter = await stat(cacheFile());
    expect(cacheAfter.mtimeMs).toBe(cacheBefore.mtimeMs);
    expect(cacheAfter.ino).toBe(cacheBefore.ino);
  });

  it('when the cache folder was deleted and nothing changed then it is created again and the bundle is not written', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    await rm(join(dir, '.dist-cache'), { recursive: true });
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache.state).toBe('created');
    await expectNothingWritten(again, before);
    // Seeded from the last sitemap: the next build uses it and still writes nothing.
    expect(readCacheRows().every((row) => row.lastmod === FIXED_NOW.toISOString())).toBe(true);
    const third = await build(options(TWO_HOURS_LATER));
    expect(third.cache.state).toBe('used');
    await expectNothingWritten(third, before);
  });

  it('when the cache holds garbage bytes then it is rebuilt, the build succeeds and writes nothing in the bundle', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    await writeFile(cacheFile(), Buffer.alloc(8192, 0x5a));
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache.state).toBe('rebuilt');
    expect(again.cache.reason).toMatch(/could not be read|corrupt/);
    await expectNothingWritten(again, before);
    expect(readCacheRows()).toHaveLength(again.plan.products.length);
    expect((await build(options(TWO_HOURS_LATER))).cache.state).toBe('used');
  });

  it('when the cache file was truncated then it is rebuilt and the bundle is not written', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const { size } = await stat(cacheFile());
    await truncate(cacheFile(), Math.floor(size / 2));
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache.state).toBe('rebuilt');
    await expectNothingWritten(again, before);
    expect((await build(options(TWO_HOURS_LATER))).cache.state).toBe('used');
  });

  it('when the cache has other tables then it is rebuilt, never trusted', async () => {
    await build(options(FIXED_NOW));
    const db = new Database(cacheFile());
    db.exec('DROP TABLE products; CREATE TABLE other (x TEXT)');
    db.close();
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache).toEqual({ state: 'rebuilt', reason: expect.stringMatching(/tables/) });
    expect(readCacheRows()).toHaveLength(again.plan.products.length);
  });

  it('when the cache was written by another cache format then it is rebuilt and says so', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const older = CACHE_FORMAT - 1;
    const products = new Map(readCacheRows().map((row) => [row.slug, row]));
    await createBuildCache(
      cacheFile(),
      { settings: 'any', created: FIXED_NOW.toISOString(), format: older },
      products,
    );
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache).toEqual({ state: 'rebuilt', reason: expect.stringContaining(`format ${older}`) });
    await expectNothingWritten(again, before);
  });

  it('when a setting that changes documents changes then the cache is rebuilt and unchanged products keep their lastmod', async () => {
    await build(options(FIXED_NOW));
    const lastmodsBefore = await publishedProductLastmods(join(dir, 'dist'));
    const file = join(dir, 'catalog.config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...config, checkout_note: 'Pay on the shop, by a person.' }));
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache).toEqual({ state: 'rebuilt', reason: expect.stringMatching(/settings/) });
    expect(again.published).toBe(true);
    expect(await publishedProductLastmods(join(dir, 'dist'))).toEqual(lastmodsBefore);
  });

  it('when one product changes an hour later then only its lastmod moves, and it stays on the next rebuilds', async () => {
    await build(options(FIXED_NOW));
    const first = await publishedProductLastmods(join(dir, 'dist'));
    expect(Object.keys(first)).toHaveLength(4);
    expect(Object.values(first).every((lastmod) => lastmod === FIXED_NOW.toISOString())).toBe(true);

    await setPrice('green-glow', '11.25');
    const second = await build(options(AN_HOUR_LATER));
    expect(second.cache.state).toBe('used');
    const after = await publishedProductLastmods(join(dir, 'dist'));
    expect(after['green-glow']).toBe(AN_HOUR_LATER.toISOString());
    for (const slug of ['peach-creme', 'winter-citrus', 'tart-cherry']) expect(after[slug]).toBe(first[slug]);
    expect(readCacheRows().find((row) => row.slug === 'green-glow')?.lastmod).toBe(
      AN_HOUR_LATER.toISOString(),
    );

    // Another product changes later: the first one's date stays where its last change put it.
    await setPrice('tart-cherry', '3.10');
    await build(options(TWO_HOURS_LATER));
    const third = await publishedProductLastmods(join(dir, 'dist'));
    expect(third['green-glow']).toBe(AN_HOUR_LATER.toISOString());
    expect(third['tart-cherry']).toBe(TWO_HOURS_LATER.toISOString());
    expect(third['peach-creme']).toBe(first['peach-creme']);
  });

  it('when the store gives an updated time then the sitemap keeps it rather than the cached one', async () => {
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { products: Record<string, unknown>[] };
    const stamped = data.products.find((product) => product.handle === 'peach-creme');
    if (stamped === undefined) throw new Error('fixture lost peach-creme');
    stamped.updated_at = '2026-10-05T08:00:00Z';
    await writeFile(file, JSON.stringify(data));
    await build(options(FIXED_NOW));
    const lastmods = await publishedProductLastmods(join(dir, 'dist'));
    expect(lastmods['peach-creme']).toBe(new Date('2026-10-05T08:00:00Z').toISOString());
    expect(lastmods['green-glow']).toBe(FIXED_NOW.toISOString());
  });

  it('when a product is dropped then its row leaves the cache', async () => {
    await build(options(FIXED_NOW));
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { products: { handle: string }[] };
    await writeFile(
      file,
      JSON.stringify({ products: data.products.filter((p) => p.handle !== 'tart-cherry') }),
    );
    await build({ ...options(AN_HOUR_LATER), allowShrink: true });
    expect(readCacheRows().map((row) => row.slug)).not.toContain('tart-cherry');
  });

  it('when nothing is written (write: false) then no cache is created', async () => {
    const result = await build({ ...options(FIXED_NOW), write: false });
    expect(result.cache.state).toBe('created');
    await expect(stat(join(dir, '.dist-cache'))).rejects.toThrow();
  });

  it('when the cache was rebuilt then the human summary says so in one line', async () => {
    await build(options(FIXED_NOW));
    await writeFile(cacheFile(), 'not a database');
    const result = await build(options(AN_HOUR_LATER));
    const text = humanSummaryOf(result);
    expect(text.split('\n').filter((line) => line.includes('build cache rebuilt'))).toHaveLength(1);
  });
});

describe('a cache write killed half way', () => {
  it('when a temporary file of a killed build is left in the cache folder then the next write removes it', async () => {
    await build(options(FIXED_NOW));
    const stale = join(dir, '.dist-cache', 'build-cache.sqlite.0123456789ab.tmp');
    await writeFile(stale, 'half a database');
    await rm(cacheFile());
    expect((await build(options(AN_HOUR_LATER))).cache.state).toBe('created');
    await expect(stat(stale)).rejects.toThrow();
    expect(readCacheRows()).toHaveLength(4);
  });
});
