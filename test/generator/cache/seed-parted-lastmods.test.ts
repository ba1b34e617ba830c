/**
 * The build cache lost while the last bundle's catalog and sitemap are stored in parts
 * (live surface on, parts made small so the sample's documents are parted, as they are
 * from about 10,000 products): the last bundle still seeds every unchanged product's
 * lastmod, and a last bundle it cannot read seeds nothing without failing the build.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, type BuildResult, build } from '../../../generator/build.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import {
  FIXED_NOW,
  hashTree,
  makeWorkspace,
  publishedProductLastmods,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const AN_HOUR_LATER = new Date(FIXED_NOW.getTime() + 3_600_000);
const CATALOG_MANIFEST = '_parts/agent-catalog.json/manifest.json';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

async function editJson(path: string, edit: (value: Record<string, unknown>) => unknown): Promise<void> {
  const file = join(dir, path);
  await writeFile(file, JSON.stringify(edit(JSON.parse(await readFile(file, 'utf8')))));
}

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
  // Without the store's `updated_at`, every lastmod is the cache's (or the seed's) time.
  await editJson('upstream/products.json', (data) => {
    for (const product of data.products as Record<string, unknown>[]) delete product.updated_at;
    return data;
  });
  // The live surface on: a document larger than one part is stored in parts.
  await editJson('catalog.config.json', (config) => ({ ...config, live: { enabled: true } }));
});
afterEach(() => cleanup());

function options(now: Date): BuildOptions {
  return { ...writingBuildOptions(dir, now), partSizes: partSizesAround(256) };
}

async function dropCache(): Promise<void> {
  await rm(join(dir, '.dist-cache'), { recursive: true });
}

function cachedLastmods(): Record<string, string> {
  const db = new Database(join(dir, '.dist-cache', 'build-cache.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT slug, lastmod FROM products').all() as {
      slug: string;
      lastmod: string;
    }[];
    return Object.fromEntries(rows.map(({ slug, lastmod }) => [slug, lastmod]));
  } finally {
    db.close();
  }
}

/** A first build whose catalog and sitemap are stored in parts, then the cache folder deleted. */
async function buildPartedThenLoseCache(): Promise<{ first: BuildResult; before: Record<string, string> }> {
  const first = await build(options(FIXED_NOW));
  expect(existsSync(join(dir, 'dist', CATALOG_MANIFEST))).toBe(true);
  expect(existsSync(join(dir, 'dist/agent-catalog.json'))).toBe(false);
  expect(existsSync(join(dir, 'dist/_parts/sitemap.xml/manifest.json'))).toBe(true);
  const before = await hashTree(join(dir, 'dist'));
  await dropCache();
  return { first, before };
}

function slugsOf(result: BuildResult): string[] {
  return [...result.plan.products].map((product) => product.record.slug);
}

function everyLastmod(slugs: readonly string[], time: Date): Record<string, string> {
  return Object.fromEntries(slugs.map((slug) => [slug, time.toISOString()]));
}

describe('lastmods seeded from a last bundle stored in parts', () => {
  it('when the cache folder was deleted and nothing changed then the rebuild writes nothing', async () => {
    const { first, before } = await buildPartedThenLoseCache();
    const again = await build(options(AN_HOUR_LATER));
    expect(again.cache.state).toBe('created');
    expect(again.changed).toBe(false);
    expect(again.files.written).toBe(0);
    expect(await hashTree(join(dir, 'dist'))).toEqual(before);
    expect(cachedLastmods()).toEqual(everyLastmod(slugsOf(first), FIXED_NOW));
  });

  it('when one product changed while the cache was gone then it alone gets the build time', async () => {
    const { first } = await buildPartedThenLoseCache();
    const [changed, ...others] = slugsOf(first);
    if (changed === undefined || others.length === 0) throw new Error('the sample needs two products');
    await setUpstreamPrice(dir, changed, '99.00');
    const again = await build(options(AN_HOUR_LATER));
    expect(again.published).toBe(true);
    const expected = { ...everyLastmod(others, FIXED_NOW), [changed]: AN_HOUR_LATER.toISOString() };
    expect(await publishedProductLastmods(join(dir, 'dist'))).toEqual(expected);
    expect(cachedLastmods()).toEqual(expected);
  });
});

describe('a last bundle stored in parts that cannot be read', () => {
  async function expectNothingSeeded(): Promise<void> {
    const again = await build(options(AN_HOUR_LATER));
    expect(again.published).toBe(true);
    expect(again.cache.state).toBe('created');
    const expected = everyLastmod(slugsOf(again), AN_HOUR_LATER);
    expect(await publishedProductLastmods(join(dir, 'dist'))).toEqual(expected);
    expect(cachedLastmods()).toEqual(expected);
  }

  it('when a part of the catalog was truncated then the build succeeds and seeds nothing', async () => {
    await buildPartedThenLoseCache();
    const manifest = JSON.parse(await readFile(join(dir, 'dist', CATALOG_MANIFEST), 'utf8')) as {
      parts: { path?: string }[];
    };
    // The last part file: the products of the parts before it read well, and must seed nothing either.
    const files = manifest.parts.flatMap((entry) => entry.path ?? []);
    expect(files.length).toBeGreaterThan(1);
    const part = files.at(-1);
    if (part === undefined) throw new Error('the catalog has no part file');
    const bytes = await readFile(join(dir, 'dist', part));
    await writeFile(join(dir, 'dist', part), bytes.subarray(0, bytes.length >> 1));
    await expectNothingSeeded();
  });

  it("when the catalog's manifest is not one then the build succeeds and seeds nothing", async () => {
    await buildPartedThenLoseCache();
    await writeFile(join(dir, 'dist', CATALOG_MANIFEST), '{"format": 2, "parts": [');
    await expectNothingSeeded();
  });

  it("when the sitemap's manifest is not one then the build succeeds and seeds nothing", async () => {
    await buildPartedThenLoseCache();
    await writeFile(join(dir, 'dist/_parts/sitemap.xml/manifest.json'), 'not json');
    await expectNothingSeeded();
  });
});

describe('a last catalog that names a product twice', () => {
  for (const where of ['before', 'after'] as const) {
    it(`when a slug is listed twice, a second record ${where} the real one, then neither dates it and the others keep theirs`, async () => {
      await editJson('catalog.config.json', (config) => ({ ...config, live: { enabled: false } }));
      const first = await build(options(FIXED_NOW));
      await dropCache();
      const [twice, ...others] = slugsOf(first);
      if (twice === undefined || others.length === 0) throw new Error('the sample needs two products');
      await editJson('dist/agent-catalog.json', (catalog) => {
        const products = catalog.products as Record<string, unknown>[];
        const second = { ...products.find((product) => product.slug === twice), price: '0.01' };
        return { ...catalog, products: where === 'before' ? [second, ...products] : [...products, second] };
      });
      await build(options(AN_HOUR_LATER));
      expect(cachedLastmods()).toEqual({
        ...everyLastmod(others, FIXED_NOW),
        [twice]: AN_HOUR_LATER.toISOString(),
      });
    });
  }
});
