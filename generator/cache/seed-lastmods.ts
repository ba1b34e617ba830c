/**
 * Where a rebuilt build cache takes its lastmods from: the last bundle itself. A product
 * whose record is the one the last catalog published keeps the `lastmod` the last sitemap
 * gave its page, so losing the cache (a fresh CI runner, a deleted folder) changes no
 * sitemap and a rebuild where nothing changed still writes nothing. A product that is new
 * or whose record differs gets the build time, as it would with a cache. Anything the
 * last bundle does not hold, or holds unreadably, seeds nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config.js';
import { catalogPaths } from '../emit/catalog.js';
import { parseSitemap, SITEMAP_FILE } from '../emit/sitemap.js';
import { W3C_DATETIME } from '../emit/sitemap-entries.js';
import { productMarkdownPath } from '../emit/sitemap-pages.js';
import { digestRecord } from './product-digest.js';

/** A sitemap part the index may name: `sitemap-<n>.xml` at the bundle's root, nothing else. */
const SITEMAP_PART = /^sitemap-\d+\.xml$/;

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}

function addEntries(lastmods: Map<string, string>, entries: readonly Record<string, unknown>[]): void {
  for (const { loc, lastmod } of entries) {
    if (typeof loc !== 'string' || typeof lastmod !== 'string' || !W3C_DATETIME.test(lastmod)) continue;
    try {
      lastmods.set(new URL(loc).pathname, lastmod);
    } catch {
      // Not a URL: the last bundle's sitemap was not valid; that entry seeds nothing.
    }
  }
}

/** The last sitemap's lastmod of each URL path, the parts of a sitemap index included. */
async function readSitemapLastmods(out: string): Promise<Map<string, string>> {
  const lastmods = new Map<string, string>();
  const root = await readText(join(out, SITEMAP_FILE));
  const parsed = root === undefined ? undefined : parseSitemap(root);
  if (parsed?.kind === 'urlset') addEntries(lastmods, parsed.entries);
  if (parsed?.kind !== 'sitemapindex') return lastmods;
  for (const { loc } of parsed.entries) {
    const part = typeof loc === 'string' && URL.canParse(loc) ? new URL(loc).pathname.slice(1) : '';
    if (!SITEMAP_PART.test(part)) continue;
    const text = await readText(join(out, part));
    const child = text === undefined ? undefined : parseSitemap(text);
    if (child?.kind === 'urlset') addEntries(lastmods, child.entries);
  }
  return lastmods;
}

/** The record digest of each product of the last catalog, by slug. */
async function readCatalogDigests(out: string, config: ResolvedConfig): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  const text = await readText(join(out, `${catalogPaths(config.base_url).catalogPath.slice(1)}.json`));
  let data: unknown;
  try {
    data = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return digests;
  }
  const products = typeof data === 'object' && data !== null && 'products' in data ? data.products : [];
  for (const record of Array.isArray(products) ? products : []) {
    const slug: unknown = typeof record === 'object' && record !== null ? record.slug : undefined;
    if (typeof slug === 'string') digests.set(slug, digestRecord(record));
  }
  return digests;
}

/** The lastmod a product is seeded with (its slug and record), or undefined for none. */
export type LastmodSeeder = (slug: string, record: unknown) => string | undefined;

/**
 * The lastmod to seed a product with (by slug) when its record is unchanged since the last
 * bundle and the last sitemap dated its page, asked one product at a time (the products
 * may be read back from disk one at a time). A record is digested only when the last
 * catalog has its slug: a cold build with no last bundle digests none (canonical JSON
 * sorts every object's keys, a quarter of a second at 10,000 products, for nothing).
 */
export async function lastmodSeeder(out: string, config: ResolvedConfig): Promise<LastmodSeeder> {
  const previous = await readCatalogDigests(out, config);
  if (previous.size === 0) return () => undefined;
  const lastmods = await readSitemapLastmods(out);
  return (slug, record) => {
    const before = previous.get(slug);
    if (before === undefined || before !== digestRecord(record)) return undefined;
    return lastmods.get(new URL(productMarkdownPath(slug), config.site_url).pathname);
  };
}
