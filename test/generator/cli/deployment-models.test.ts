/**
 * The two deployment models, built from the repository's sample merchant with the real
 * CLI: (a) the bundle on its own host (`--site-url https://agents.<store>`), the store
 * elsewhere; (b) the bundle at the store's own origin. Product links must lead to the store
 * in both, and the sitemap may list only its own host. A `site_url` with a path is refused.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';
import { ensureCompiled, runCli } from './run-cli.js';

const STORE = 'https://pomona-juice.example';
const AGENTS = 'https://agents.pomona-juice.example';
const CONFIG = join(REPO_ROOT, 'catalog.config.json');

let root = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  await ensureCompiled();
  ({ dir: root, cleanup } = await makeWorkspace());
}, 60_000);

afterAll(() => cleanup());

async function build(name: string, args: string[]): Promise<string> {
  const out = join(root, name);
  const run = await runCli(['build', '--quiet', '--config', CONFIG, '--out', out, ...args], {
    cwd: root,
    limitMs: 60_000,
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return out;
}

async function readAll(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = join(entry.parentPath, entry.name);
      files.set(file.slice(dir.length + 1), await readFile(file, 'utf8'));
    }
  }
  return files;
}

function sitemapLocs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] ?? '');
}

interface CatalogProduct {
  slug: string;
  url: string;
  purchase_url: string;
}

async function catalogOf(dir: string): Promise<CatalogProduct[]> {
  return (
    JSON.parse(await readFile(join(dir, 'agent-catalog.json'), 'utf8')) as { products: CatalogProduct[] }
  ).products;
}

describe('model (a): the bundle on its own host', () => {
  it('when built with --site-url https://agents.<store> then every product link is on the storefront', async () => {
    const dir = await build('model-a', ['--site-url', AGENTS]);
    const products = await catalogOf(dir);
    expect(products.length).toBeGreaterThan(0);
    for (const product of products) {
      expect(product.url).toBe(`${STORE}/products/${product.slug}`);
      expect(product.purchase_url.startsWith(`${STORE}/products/`)).toBe(true);
    }
    const files = await readAll(dir);
    for (const [path, text] of files) {
      expect(text.includes(`${AGENTS}/products/`), path).toBe(false);
    }
    const linkers = ['feed.xml', 'kb/products.json', 'kb/pomona-knowledge-base.md', 'llms-full.txt'];
    for (const path of linkers) {
      for (const product of products)
        expect(files.get(path), `${path} ${product.slug}`).toContain(product.url);
    }
  });

  it('when built for its own host then the sitemap lists only that host, and no product page', async () => {
    const dir = await build('model-a-sitemap', ['--site-url', AGENTS]);
    const locs = sitemapLocs(await readFile(join(dir, 'sitemap.xml'), 'utf8'));
    expect(locs.length).toBeGreaterThan(0);
    for (const loc of locs) expect(new URL(loc).origin).toBe(AGENTS);
    // The store's product pages are not listed; the bundle's own Markdown product pages are.
    expect(locs.some((loc) => loc.includes('/products/') && !loc.includes('/kb/products/'))).toBe(false);
    expect(locs.some((loc) => loc.includes('/kb/products/'))).toBe(true);
    const check = await runCli(['check', dir], { cwd: root, limitMs: 60_000 });
    expect(check.code).toBe(0);
  });

  it('when storefront_url is set then product pages are built on it, not on merchant.url', async () => {
    const config = JSON.parse(await readFile(CONFIG, 'utf8')) as Record<string, unknown>;
    const file = join(root, 'storefront.config.json');
    const shop = 'https://shop.pomona-juice.example';
    await writeFile(
      file,
      JSON.stringify({
        ...config,
        storefront_url: shop,
        content_dir: join(REPO_ROOT, 'sample/content'),
        upstream: { format: 'shopify', source: join(REPO_ROOT, 'sample/upstream/products.json') },
      }),
    );
    const out = join(root, 'storefront');
    const run = await runCli(['build', '--quiet', '--config', file, '--out', out, '--site-url', AGENTS], {
      cwd: root,
      limitMs: 60_000,
    });
    expect(run.code).toBe(0);
    for (const product of await catalogOf(out)) expect(product.url).toBe(`${shop}/products/${product.slug}`);
  });

  it('when a sitemap lists a page of another host then check refuses the bundle', async () => {
    const dir = await build('model-a-tampered', ['--site-url', AGENTS]);
    const sitemap = join(dir, 'sitemap.xml');
    const text = await readFile(sitemap, 'utf8');
    await writeFile(
      sitemap,
      text.replace('</urlset>', `<url><loc>${STORE}/products/green-glow</loc></url></urlset>`),
    );
    const check = await runCli(['check', dir], { cwd: root, limitMs: 60_000 });
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toContain(
      `${STORE}/products/green-glow, which is not on its own host`,
    );
  });
});

describe('model (b): the bundle at the store origin', () => {
  it('when site_url is the store then the sitemap lists every product page too', async () => {
    const dir = await build('model-b', []);
    const locs = sitemapLocs(await readFile(join(dir, 'sitemap.xml'), 'utf8'));
    for (const product of await catalogOf(dir)) expect(locs).toContain(product.url);
    for (const loc of locs) expect(new URL(loc).origin).toBe(STORE);
  });
});

describe('model (b) keys that contradict each other', () => {
  it('when storefront_origin is set but --site-url puts the bundle on its own host then the build exits 2 naming the keys', async () => {
    const config = JSON.parse(await readFile(CONFIG, 'utf8')) as Record<string, unknown>;
    const file = join(root, 'contradiction.config.json');
    await writeFile(
      file,
      JSON.stringify({
        ...config,
        storefront_origin: 'https://pomona.myshopify.com',
        content_dir: join(REPO_ROOT, 'sample/content'),
        upstream: { format: 'shopify', source: join(REPO_ROOT, 'sample/upstream/products.json') },
      }),
    );
    const out = join(root, 'contradiction');
    const run = await runCli(['build', '--config', file, '--out', out, '--site-url', AGENTS], {
      cwd: root,
      limitMs: 60_000,
    });
    expect(run.code).toBe(2);
    for (const key of ['storefront_origin', 'storefront_url', 'site_url']) expect(run.stderr).toContain(key);
    await expect(readdir(out)).rejects.toThrow();
  });
});

describe('a site_url with a path', () => {
  it('when --site-url carries a path then the build exits 2 pointing at base_url and writes nothing', async () => {
    const out = join(root, 'with-path');
    const run = await runCli(
      ['build', '--config', CONFIG, '--out', out, '--site-url', 'https://juice.example/shop'],
      {
        cwd: root,
        limitMs: 60_000,
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('site_url');
    expect(run.stderr).toContain('"base_url": "https://juice.example/shop"');
    await expect(readdir(out)).rejects.toThrow();
  });

  it('when the path is given as base_url instead then the catalog is served under it', async () => {
    const dir = await build('base-path', ['--base-url', `${AGENTS}/shop`, '--site-url', AGENTS]);
    const redirects = await readFile(join(dir, '_redirects'), 'utf8');
    expect(redirects).toMatch(/^\/shop\/agent-catalog\s/m);
  });
});
