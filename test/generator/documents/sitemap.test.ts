import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { checkSitemap, emitSitemap, SITEMAP_FILE } from '../../../generator/emit/sitemap.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import { makeSampleConfig, makeSamplePlan, makeSampleProducts } from '../../helpers/sample-plan.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface Entry {
  loc: string;
  lastmod: string;
}
interface Parsed {
  urlset?: { '@_xmlns': string; url: Entry[] };
  sitemapindex?: { '@_xmlns': string; sitemap: Entry[] };
}

function parse(body: string): Parsed {
  expect(XMLValidator.validate(body)).toBe(true);
  return parser.parse(body) as Parsed;
}

function manyProducts(count: number): PlannedProduct[] {
  const config = makeSampleConfig();
  const [template] = makeSampleProducts(config);
  if (template === undefined) throw new Error('no sample product');
  return Array.from({ length: count }, (_, index) => {
    const slug = `juice-${index}`;
    const url = `${config.site_url}/products/${slug}`;
    return {
      ...template,
      sourceId: String(index),
      record: { ...template.record, slug, url, purchase_url: url },
    };
  });
}

describe('emitSitemap', () => {
  it('lists every product page and the public documents as absolute URLs with lastmod', () => {
    const plan = makeSamplePlan();
    const [artifact, ...rest] = [...emitSitemap(plan)];
    expect(rest).toEqual([]);
    expect(artifact?.path).toBe('sitemap.xml');
    expect(artifact?.mediaType).toBe('application/xml');
    const parsed = parse(artifact?.body ?? '');
    expect(parsed.urlset?.['@_xmlns']).toBe(NS);
    const locs = parsed.urlset?.url.map((entry) => entry.loc) ?? [];
    for (const product of [...recordsOf(plan.products)]) expect(locs).toContain(product.url);
    for (const path of ['/api/', '/kb/products.json', '/kb/pomona-knowledge-base.md', '/llms.txt']) {
      expect(locs).toContain(`https://shop.pomona.example${path}`);
    }
    for (const loc of locs) expect(new URL(loc).origin).toBe('https://shop.pomona.example');
    const green = parsed.urlset?.url.find((entry) => entry.loc.endsWith('/green-glow'));
    expect(green?.lastmod).toBe('2026-11-20T08:00:00.000Z');
    expect(parsed.urlset?.url.find((entry) => entry.loc.endsWith('/llms.txt'))?.lastmod).toBe(plan.generated);
  });

  it('uses the build time as lastmod when the upstream time is unknown', () => {
    const config = makeSampleConfig();
    const products = makeSampleProducts(config).map(({ updatedAt: _drop, ...rest }) => rest);
    const plan = makeSamplePlan({ config, products });
    const parsed = parse([...emitSitemap(plan)][0]?.body ?? '');
    for (const entry of parsed.urlset?.url ?? []) expect(entry.lastmod).toBe(plan.generated);
  });

  it('uses the build time as lastmod when the upstream time is a date the protocol does not accept', () => {
    const config = makeSampleConfig();
    const products = makeSampleProducts(config).map((product) => ({
      ...product,
      updatedAt: 'Fri, 20 Nov 2026 08:00:00 GMT',
    }));
    const plan = makeSamplePlan({ config, products });
    const [artifact] = [...emitSitemap(plan)];
    const parsed = parse(artifact?.body ?? '');
    for (const entry of parsed.urlset?.url ?? []) expect(entry.lastmod).toBe(plan.generated);
    expect(checkSitemap(bundleFilesOf(artifact ? [artifact] : []))).toEqual([]);
  });

  it('leaves out product pages on another host than the site', () => {
    const config = makeSampleConfig();
    const products = makeSampleProducts(config);
    const moved = products.map((p, i) =>
      i === 0 ? { ...p, record: { ...p.record, url: 'https://elsewhere.example/products/green-glow' } } : p,
    );
    const parsed = parse([...emitSitemap(makeSamplePlan({ config, products: moved }))][0]?.body ?? '');
    expect(parsed.urlset?.url.some((entry) => entry.loc.includes('elsewhere'))).toBe(false);
  });

  it('escapes an ampersand in a product URL and a parser reads the URL back unchanged', () => {
    const config = makeSampleConfig();
    const url = `${config.site_url}/products/green-glow?size=6&pack=glass`;
    const products = makeSampleProducts(config).map((p, i) =>
      i === 0 ? { ...p, record: { ...p.record, url } } : p,
    );
    const body = [...emitSitemap(makeSamplePlan({ config, products }))][0]?.body ?? '';
    expect(body).toContain('size=6&amp;pack=glass');
    expect(parse(body).urlset?.url.map((entry) => entry.loc)).toContain(url);
  });

  it('refuses a product URL with spaces, naming the product', () => {
    const config = makeSampleConfig();
    const products = makeSampleProducts(config).map((p) => ({
      ...p,
      record: { ...p.record, url: `${p.record.url} x` },
    }));
    expect(() => [...emitSitemap(makeSamplePlan({ config, products }))]).toThrow(
      expect.objectContaining({
        code: 'PRODUCT_INVALID',
        details: expect.objectContaining({ product: 'green-glow' }),
      }),
    );
  });

  it('splits 50,001 products (and their Markdown pages) into sitemaps of at most 50,000 URLs under a sitemap index', () => {
    const plan = makeSamplePlan({ products: manyProducts(50_001) });
    const artifacts = [...emitSitemap(plan)];
    const index = parse(artifacts.find((a) => a.path === SITEMAP_FILE)?.body ?? '');
    expect(index.urlset).toBeUndefined();
    expect(index.sitemapindex?.['@_xmlns']).toBe(NS);
    const children = index.sitemapindex?.sitemap.map((entry) => entry.loc) ?? [];
    expect(children).toEqual([
      'https://shop.pomona.example/sitemap-1.xml',
      'https://shop.pomona.example/sitemap-2.xml',
      'https://shop.pomona.example/sitemap-3.xml',
    ]);
    let total = 0;
    for (const loc of children) {
      const artifact = artifacts.find((a) => `/${a.path}` === new URL(loc).pathname);
      const parsed = parse(artifact?.body ?? '');
      const count = parsed.urlset?.url.length ?? 0;
      expect(count).toBeLessThanOrEqual(50_000);
      total += count;
    }
    // Six documents, then each product's page and its Markdown page.
    expect(total).toBe(6 + 2 * 50_001);
    expect(checkSitemap(bundleFilesOf(artifacts))).toEqual([]);
  });

  it('lists a URL several products share once, where it first comes, in one file and across parts', () => {
    const config = makeSampleConfig();
    // Every third product shares one page; the rest have their own.
    const shared = `${config.site_url}/products/assortment`;
    const sharing = (count: number): PlannedProduct[] =>
      manyProducts(count).map((product, index) =>
        index % 3 === 0 ? { ...product, record: { ...product.record, url: shared } } : product,
      );
    for (const count of [30, 60_000]) {
      const products = sharing(count);
      const artifacts = [...emitSitemap(makeSamplePlan({ config, products }))];
      const index = parse(artifacts.find((a) => a.path === SITEMAP_FILE)?.body ?? '');
      const files = index.sitemapindex
        ? index.sitemapindex.sitemap.map((entry) => new URL(entry.loc).pathname.slice(1))
        : [SITEMAP_FILE];
      const locs = files.flatMap((file) =>
        (parse(artifacts.find((a) => a.path === file)?.body ?? '').urlset?.url ?? []).map(
          (entry) => entry.loc,
        ),
      );
      expect(new Set(locs).size).toBe(locs.length);
      const pages = products.map((product) => `${config.site_url}/kb/products/${product.record.slug}.md`);
      const own = products.filter((_, index) => index % 3 !== 0).map((product) => product.record.url);
      expect(new Set(locs)).toEqual(new Set([...locs.slice(0, 6), ...pages, ...own, shared]));
      // The shared page comes right after the first product's Markdown page, and only there.
      expect(locs.indexOf(shared)).toBe(locs.indexOf(pages[0] ?? '') + 1);
      expect(checkSitemap(bundleFilesOf(artifacts))).toEqual([]);
    }
  });

  it('gives the parts of a split sitemap no tree to hold until the gate: the gate reads each from its file', () => {
    const artifacts = [...emitSitemap(makeSamplePlan({ products: manyProducts(50_001) }))];
    const parts = artifacts.filter((artifact) => artifact.path !== SITEMAP_FILE);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.serialisedFrom).toBeUndefined();
    // A part edited after emitting is what the gate judges: nothing stands in for its text.
    const [first] = parts;
    if (first === undefined) throw new Error('no part');
    const broken = artifacts.map((artifact) =>
      artifact === first ? { ...artifact, body: artifact.body.replace('</urlset>', '') } : artifact,
    );
    expect(checkSitemap(bundleFilesOf(broken)).map((problem) => [problem.path, problem.rule])).toEqual([
      [first.path, 'xml'],
    ]);
  });

  it('passes its own checker', () => {
    expect(checkSitemap(bundleFilesOf([...emitSitemap(makeSamplePlan())]))).toEqual([]);
  });
});

describe('checkSitemap', () => {
  const good = [...emitSitemap(makeSamplePlan())][0]?.body ?? '';
  const check = (body: string) => checkSitemap(new Map([[SITEMAP_FILE, body]]));

  it('refuses a relative URL', () => {
    expect(check(good.replace('<loc>https://shop.pomona.example/llms.txt', '<loc>/llms.txt'))).toHaveLength(
      1,
    );
  });

  it('refuses malformed XML', () => {
    expect(check(good.replace('</urlset>', '')).map((p) => p.rule)).toEqual(['xml']);
  });

  it('refuses more than 50,000 URLs in one file', () => {
    const entry = '<url><loc>https://shop.pomona.example/x</loc></url>';
    const body = `<?xml version="1.0"?><urlset xmlns="${NS}">${entry.repeat(50_001)}</urlset>`;
    expect(check(body)).toHaveLength(1);
  });

  it('refuses an index that lists a sitemap missing from the bundle', () => {
    const index = `<?xml version="1.0"?><sitemapindex xmlns="${NS}"><sitemap><loc>https://shop.pomona.example/sitemap-9.xml</loc></sitemap></sitemapindex>`;
    expect(check(index)).toHaveLength(1);
  });

  it('refuses a bad lastmod and a wrong namespace', () => {
    const broken = good.replace(NS, 'http://example.com/ns').replace(/<lastmod>[^<]+/, '<lastmod>yesterday');
    expect(check(broken)).toHaveLength(2);
  });
});
