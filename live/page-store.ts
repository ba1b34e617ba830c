/**
 * Product pages packed into shards (issue 30's file budget): with the live surface on, the
 * Markdown page of each product (`/kb/products/<slug>.md`) is not a file of its own but an
 * entry of `_live/pages/<n>.pack`, keyed by its name (the slug, or a shorter name for a
 * slug too long for a file name), with its entity tag beside it, and
 * `_live/pages.json` says where the pages are served, how many shards there are and the
 * headers every page is sent with (exactly those `_headers` gives a page when it is a
 * file). The generator writes both (`buildPagesManifest`, `packPageShard`); the handler answers a page with
 * `page-route.ts`, reading one shard and slicing one entry.
 */
import { packEntries } from './packed-shard.js';

export interface PagesManifest {
  format: 1;
  /** The build's time: keys the handler's cache, as the live manifest's does. */
  generated: string;
  /** The URL path of the pages' folder, with both slashes (`/kb/products/`). */
  folder: string;
  /** How many `_live/pages/<n>.pack` files there are (a page's is `shardOf(name, shards)`). */
  shards: number;
  /** The headers of every page, in order, as `_headers` would give them (ETag aside). */
  headers: [name: string, value: string][];
}

export interface PackedPage {
  /**
   * The page's name, decoded: the page is `${folder}${encodeURIComponent(name)}.md`. The
   * product's slug, or a shorter name when `<slug>.md` is too long for a file name (the
   * generator's `productPageName`); the handler only ever reads it back from a URL.
   */
  name: string;
  body: string;
  /** The strong entity tag of the body's UTF-8 bytes, quoted (`"…"`), as preview tags the file. */
  etag: string;
}

export function buildPagesManifest(settings: Omit<PagesManifest, 'format'>): string {
  const manifest: PagesManifest = { format: 1, ...settings };
  return JSON.stringify(manifest);
}

/** One shard's pages (those whose `shardOf(name, shards)` is this shard), packed. */
export function packPageShard(pages: readonly PackedPage[]): string {
  return packEntries(pages.map((page) => ({ key: page.name, body: page.body, meta: page.etag })));
}
