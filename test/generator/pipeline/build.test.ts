import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { isCatalogError } from '../../../generator/errors.js';
import { createMemoryLogger, silentLogger } from '../../../generator/logger.js';
import type { Catalog, Health } from '../../../generator/model.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { FIXED_NOW, hashTree, makeWorkspace } from './helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

function options(extra: Partial<BuildOptions> = {}): BuildOptions {
  return {
    configPath: 'catalog.config.json',
    out: 'dist',
    cwd: dir,
    write: false,
    logger: silentLogger,
    now: () => FIXED_NOW,
    ...extra,
  };
}

function bodyOf(artifacts: { path: string; body: string }[], path: string): string {
  const found = artifacts.find((artifact) => artifact.path === path);
  if (!found) throw new Error(`no artifact ${path}`);
  return found.body;
}

async function rewriteUpstream(edit: (products: Record<string, unknown>[]) => Record<string, unknown>[]) {
  const file = join(dir, 'upstream/products.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { products: Record<string, unknown>[] };
  await writeFile(file, JSON.stringify({ products: edit(data.products) }));
}

describe('build (write: false)', () => {
  it('when built then the catalog count equals its products, sorted by slug, and nothing is written', async () => {
    const result = await build(options());
    const catalog = JSON.parse(bodyOf(result.artifacts, 'agent-catalog.json')) as Catalog;
    expect(catalog.count).toBe(catalog.products.length);
    expect(catalog.products.map((p) => p.slug)).toEqual([
      'green-glow',
      'peach-creme',
      'tart-cherry',
      'winter-citrus',
    ]);
    expect(catalog.generated).toBe(FIXED_NOW.toISOString());
    expect(await hashTree(join(dir, 'dist'))).toEqual({});
    expect(result.published).toBe(false);
  });

  it('when built then content overrides upstream descriptions while prices and availability stay upstream', async () => {
    const result = await build(options());
    const bySlug = new Map([...recordsOf(result.plan.products)].map((p) => [p.slug, p]));
    expect(bySlug.get('green-glow')).toMatchObject({
      description: 'A bright green juice "for mornings" & afternoons.',
      packaging: '6 x 12 fl oz (355 mL) glass bottles',
      price: '9.50',
      availability: 'in_stock',
      shipping: 'Ships cold, Monday to Wednesday.',
    });
    expect(bySlug.get('peach-creme')).toMatchObject({ name: 'Pêche & <Crème> 🍑 桃', price: '1234.50' });
    expect(bySlug.get('winter-citrus')).toMatchObject({ availability: 'coming_soon', price: '0.00' });
    expect(bySlug.get('tart-cherry')).toMatchObject({ availability: 'out_of_stock', description: 'Fresh.' });
    expect(result.plan.articles.map((a) => a.slug)).toEqual(['how-we-press']);
  });

  it('when built then health is ok, cached and carries the build time without any upstream call', async () => {
    let calls = 0;
    const result = await build(
      options({
        fetchUpstream: async (upstream, context) => {
          calls += 1;
          const { fetchUpstream } = await import('../../../generator/sources/index.js');
          return fetchUpstream(upstream, context);
        },
      }),
    );
    const health = JSON.parse(bodyOf(result.artifacts, 'agent-catalog/health.json')) as Health;
    expect(health).toEqual({
      status: 'ok',
      service: 'Fixture Juice agent catalog',
      generated: FIXED_NOW.toISOString(),
      cached: true,
    });
    expect(calls).toBe(1);
  });

  it('when built twice from the same input then every artifact is byte-identical', async () => {
    const first = await build(options());
    const second = await build(options());
    expect(second.artifacts).toEqual(first.artifacts);
  });

  it('when only the clock differs then the artifacts differ only in renderings of the generated time', async () => {
    const later = new Date('2027-01-01T00:00:00.000Z');
    const first = await build(options());
    const second = await build(options({ now: () => later }));
    // The documents render the one build time in the formats their standards use.
    const forms = (time: Date) => [time.toISOString(), time.toUTCString(), time.toISOString().slice(0, 10)];
    const strip = (body: string, time: Date) =>
      forms(time).reduce((text, form) => text.split(form).join('<generated>'), body);
    expect(second.artifacts.map((a) => a.path)).toEqual(first.artifacts.map((a) => a.path));
    for (const artifact of first.artifacts) {
      expect(strip(bodyOf(second.artifacts, artifact.path), later)).toBe(strip(artifact.body, FIXED_NOW));
    }
  });

  it('when an upstream product is invalid then it is left out with a warning naming it', async () => {
    await rewriteUpstream((products) => [
      ...products,
      { id: 99, title: 'Broken', handle: 'broken', variants: [] },
    ]);
    const logger = createMemoryLogger();
    const result = await build(options({ logger }));
    expect(result.plan.catalog.count).toBe(4);
    const invalid = result.warnings.filter((w) => w.code === 'PRODUCT_INVALID');
    expect(invalid.map((w) => w.product)).toEqual(['99']);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(result.warnings.length);
  });

  it('when an upstream product with a content file is invalid then it is left out with a warning, not a stale-content error', async () => {
    await rewriteUpstream((products) =>
      products.map((product) => (product.handle === 'green-glow' ? { ...product, variants: [] } : product)),
    );
    const result = await build(options());
    expect([...recordsOf(result.plan.products)].map((p) => p.slug)).not.toContain('green-glow');
    expect(result.warnings.map((w) => w.code)).not.toContain('CONTENT_UNUSED');
    expect(result.warnings.filter((w) => w.code === 'PRODUCT_INVALID')).toHaveLength(1);
  });

  it('when an upstream product is invalid under --strict then the build fails with PRODUCT_INVALID', async () => {
    await rewriteUpstream((products) => [
      ...products,
      { id: 99, title: 'Broken', handle: 'broken', variants: [] },
    ]);
    const error = await build(options({ strict: true })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'PRODUCT_INVALID') && error.details.products).toEqual(['99']);
  });

  it('when a product breaks a Google item rule then it stays in the catalog and leaves only the feed, with a warning', async () => {
    const result = await build(options());
    expect(result.feedExcluded.map(({ product, rule }) => [product, rule])).toEqual([
      ['winter-citrus', 'price'],
    ]);
    expect([...recordsOf(result.plan.products)].map((p) => p.slug)).toContain('winter-citrus');
    expect(bodyOf(result.artifacts, 'feed.xml')).not.toContain('/products/winter-citrus<');
    const warned = result.warnings.filter((w) => w.code === 'FEED_ITEM_EXCLUDED');
    expect(warned.map((w) => w.product)).toEqual(['winter-citrus']);
  });

  it('when the config still uses the free-text shipping key then it works and warns CONFIG_DEPRECATED', async () => {
    const result = await build(options());
    expect(result.warnings.filter((w) => w.code === 'CONFIG_DEPRECATED')).toHaveLength(1);
    expect([...recordsOf(result.plan.products)][0]?.shipping).toBe('Ships cold, Monday to Wednesday.');
  });

  it('when a content file names no upstream product then the build publishes and warns naming it', async () => {
    await writeFile(join(dir, 'content/products/ghost.md'), '---\nflavor: Boo\n---\n');
    const result = await build(options());
    expect(result.plan.catalog.count).toBeGreaterThan(0);
    expect(result.unusedContent.map((item) => item.file)).toEqual(['content/products/ghost.md']);
    expect(result.warnings.filter((w) => w.code === 'CONTENT_UNUSED').map((w) => w.file)).toEqual([
      'content/products/ghost.md',
    ]);
  });

  it('when a content file names no upstream product under --strict then the build fails with CONTENT_INVALID naming it', async () => {
    await writeFile(join(dir, 'content/products/ghost.md'), '---\nflavor: Boo\n---\n');
    const error = await build(options({ strict: true })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CONTENT_INVALID') && error.details.files).toEqual([
      'content/products/ghost.md',
    ]);
  });
});

describe('build against the last bundle', () => {
  it('when nothing changed then the bundle is not rewritten and keeps its generated time', async () => {
    await build(options({ write: true }));
    const before = await hashTree(join(dir, 'dist'));
    const again = await build(options({ write: true, now: () => new Date('2027-01-01T00:00:00.000Z') }));
    expect(again.changed).toBe(false);
    expect(again.published).toBe(false);
    expect(again.plan.generated).toBe(FIXED_NOW.toISOString());
    expect(await hashTree(join(dir, 'dist'))).toEqual(before);
  });

  it('when a price and an availability change then the summary lists them and the bundle is rewritten', async () => {
    await build(options({ write: true }));
    await rewriteUpstream((products) =>
      products
        .filter((p) => p.handle !== 'tart-cherry')
        .map((p) =>
          p.handle === 'green-glow' ? { ...p, variants: [{ id: 1, price: '10.00', available: false }] } : p,
        ),
    );
    const next = await build(options({ write: true, now: () => new Date('2027-01-01T00:00:00.000Z') }));
    expect(next.changed).toBe(true);
    expect(next.changes).toEqual({
      added: [],
      removed: ['tart-cherry'],
      price: [{ slug: 'green-glow', from: '9.50', to: '10.00' }],
      availability: [{ slug: 'green-glow', from: 'in_stock', to: 'out_of_stock' }],
    });
    const catalog = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as Catalog;
    expect(catalog.generated).toBe('2027-01-01T00:00:00.000Z');
  });

  it('when the catalog shrinks below the threshold then CATALOG_SHRANK and the bundle is untouched', async () => {
    await build(options({ write: true }));
    const before = await hashTree(join(dir, 'dist'));
    // Content for the vanished products remains: the upstream failure must win over stale content.
    await rewriteUpstream((products) => products.slice(0, 1));
    const error = await build(options({ write: true })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CATALOG_SHRANK')).toBe(true);
    expect(await hashTree(join(dir, 'dist'))).toEqual(before);
  });

  it('when the catalog empties then it is refused even with a shrink threshold of 0', async () => {
    const file = join(dir, 'catalog.config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...config, build: { shrink_threshold: 0 } }));
    await build(options({ write: true }));
    await rm(join(dir, 'content/products'), { recursive: true });
    await rewriteUpstream(() => []);
    // --allow-empty allows an empty catalog, not the loss of a whole published one.
    const error = await build(options({ write: true, allowEmpty: true })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CATALOG_SHRANK')).toBe(true);
  });

  it('when the catalog empties under --allow-shrink and --allow-empty then it is published', async () => {
    await build(options({ write: true }));
    await rm(join(dir, 'content/products'), { recursive: true });
    await rewriteUpstream(() => []);
    const result = await build(options({ write: true, allowShrink: true, allowEmpty: true }));
    expect(result.plan.catalog.count).toBe(0);
    expect(result.published).toBe(true);
  });

  it('when the catalog shrinks but stays above the threshold then it is published', async () => {
    await build(options({ write: true }));
    await rewriteUpstream((products) => products.slice(0, 2));
    const result = await build(options({ write: true }));
    expect(result.plan.catalog.count).toBe(2);
  });

  it('when --out is a folder that holds no catalog then it is refused and left alone', async () => {
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const error = await build(options({ write: true, out: '.' })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'PUBLISH_FAILED')).toBe(true);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    // The build cache of `out: '.'` sits beside the workspace, outside what cleanup removes.
    await rm(join(dirname(dir), `.${basename(dir)}-cache`), { recursive: true, force: true });
  });
});
