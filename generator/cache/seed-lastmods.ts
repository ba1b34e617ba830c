/**
 * Where a rebuilt build cache takes its lastmods from: the last bundle itself. A product
 * whose record is the one the last catalog published keeps the `lastmod` the last sitemap
 * gave its page, so losing the cache (a fresh CI runner, a deleted folder) changes no
 * sitemap and a rebuild where nothing changed still writes nothing. A product that is new
 * or whose record differs gets the build time, as it would with a cache. Anything the
 * last bundle does not hold, or holds unreadably, seeds nothing.
 *
 * Memory does not grow with the catalog's text: the last catalog is read product by product
 * (last-catalog-keys.ts), whole or in parts, and the sitemap one file at a time
 * (last-sitemap-times.ts); what is kept of a product is numbers in typed arrays (8-byte
 * digests of its slug, record and page, a time), 28 bytes a dated product once the sitemap
 * is read, where a map of slugs and texts cost hundreds of megabytes at 1,000,000 products.
 * A digest never dates a product wrongly without a second coincidence: a page digest or
 * slug digest the last catalog holds twice (a repeated slug, or two texts sharing 8 bytes)
 * dates none of its products, and a slug found is dated only when its record's digest is
 * the one kept, so at worst a product gets the build time.
 */
import type { ResolvedConfig } from '../config.js';
import { PRODUCT_MARKDOWN_DIR } from '../emit/sitemap-pages.js';
import { digestOf, SortedDigests } from '../validate/digests.js';
import { type LastCatalogKeys, readLastCatalogKeys, recordKey } from './last-catalog-keys.js';
import { visitSitemapLastmods } from './last-sitemap-times.js';

/** A page the last sitemap dated twice, with two times: it dates nothing. */
const CONFLICT = Number.NEGATIVE_INFINITY;

function placesUpTo(length: number): Uint32Array {
  return Uint32Array.from({ length }, (_, place) => place);
}

/** The place holding `digest` when exactly one does, else -1. */
function onlyPlace(sorted: SortedDigests, digest: bigint): number {
  const at = sorted.find(digest);
  if (at === -1 || sorted.digests[at + 1] === digest) return -1;
  return sorted.owners[at] ?? -1;
}

/** The time the last sitemap gave each product's page, by the product's place; NaN where none. */
async function readPageTimes(out: string, pages: BigUint64Array): Promise<Float64Array> {
  const byPage = new SortedDigests(pages, placesUpTo(pages.length));
  const times = new Float64Array(pages.length).fill(Number.NaN);
  await visitSitemapLastmods(out, (path, time) => {
    // The documents' and the products' own URLs are no page: no digest to look up.
    if (!path.startsWith(PRODUCT_MARKDOWN_DIR)) return;
    const place = onlyPlace(byPage, digestOf(path));
    if (place === -1) return;
    const held = times[place] ?? Number.NaN;
    times[place] = Number.isNaN(held) || held === time ? time : CONFLICT;
  });
  return times;
}

/** The dated products of the last catalog, by slug digest: each one's record digest and time. */
class SeedTable {
  readonly #bySlug: SortedDigests;
  readonly #records: BigUint64Array;
  readonly #times: Float64Array;

  constructor(keys: LastCatalogKeys, pageTimes: Float64Array) {
    let count = 0;
    for (const time of pageTimes) if (Number.isFinite(time)) count += 1;
    const slugs = new BigUint64Array(count);
    this.#records = new BigUint64Array(count);
    this.#times = new Float64Array(count);
    let at = 0;
    for (const [place, time] of pageTimes.entries()) {
      if (!Number.isFinite(time)) continue;
      slugs[at] = keys.slugs[place] ?? 0n;
      this.#records[at] = keys.records[place] ?? 0n;
      this.#times[at] = time;
      at += 1;
    }
    this.#bySlug = new SortedDigests(slugs, placesUpTo(count));
  }

  get size(): number {
    return this.#times.length;
  }

  lastmod(slug: string, record: unknown): string | undefined {
    const at = onlyPlace(this.#bySlug, digestOf(slug));
    if (at === -1 || this.#records[at] !== recordKey(record)) return undefined;
    return new Date(this.#times[at] ?? 0).toISOString();
  }
}

/** The lastmod a product is seeded with (its slug and record), or undefined for none. */
export type LastmodSeeder = (slug: string, record: unknown) => string | undefined;

/**
 * The lastmod to seed a product with (by slug) when its record is unchanged since the last
 * bundle and the last sitemap dated its page, asked one product at a time (the products
 * may be read back from disk one at a time). A record is digested only when the last
 * bundle dated its slug: a cold build with no last bundle digests none (canonical JSON
 * sorts every object's keys, a quarter of a second at 10,000 products, for nothing).
 */
export async function lastmodSeeder(out: string, config: ResolvedConfig): Promise<LastmodSeeder> {
  const keys = await readLastCatalogKeys(out, config);
  if (keys === undefined || keys.slugs.length === 0) return () => undefined;
  const table = new SeedTable(keys, await readPageTimes(out, keys.pages));
  return table.size === 0 ? () => undefined : (slug, record) => table.lastmod(slug, record);
}
