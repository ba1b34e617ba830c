/**
 * Crawls a Shopify storefront's `/products.json?limit=…&page=…`. Page 1 is fetched alone
 * (most merchants fit on it); when it is full, the following pages are fetched a few at
 * a time until the first short or empty page, each page handed on as soon as the pages
 * before it are in. Shopify serves no page past
 * page × limit = 25,000, so a store whose pages are still full at that point cannot be
 * read completely this way: that is UPSTREAM_LIMIT (use the Admin API, or split the
 * catalog into collections and point one build at each), never a silently cut catalog.
 */

import { CatalogError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { redactUrl } from '../http/redact-url.js';
import { extractProductList } from './documents.js';
import { buildPageUrl, fetchPagesInOrder } from './paginate.js';

export const SHOPIFY_MAX_PAGE_SIZE = 250;
/** Shopify's storefront pagination stops at page × limit = 25,000. */
export const SHOPIFY_PAGINATION_CAP = 25_000;

/** Yields the storefront's pages in order, each as soon as it and every page before it are in. */
export async function* fetchShopifyPages(
  client: HttpClient,
  listing: URL,
  options: { pageSize: number; workers: number },
): AsyncGenerator<unknown[]> {
  const pageSize = Math.min(SHOPIFY_MAX_PAGE_SIZE, Math.max(1, options.pageSize));
  const lastPage = Math.floor(SHOPIFY_PAGINATION_CAP / pageSize);
  const fetchPage = async (page: number, signal?: AbortSignal): Promise<unknown[]> => {
    const url = buildPageUrl(listing, 'limit', pageSize, page);
    const response = await client.getJson(url, signal);
    return extractProductList(response.body, 'shopify', redactUrl(url));
  };
  const first = await fetchPage(1);
  yield first;
  if (first.length < pageSize) return;
  let short = false;
  if (lastPage > 1) {
    const pages = fetchPagesInOrder({
      firstPage: 2,
      lastPage,
      pageSize,
      workers: options.workers,
      stopAtShortPage: true,
      fetchPage,
    });
    for await (const page of pages) {
      short = page.length < pageSize;
      yield page;
    }
  }
  if (!short) {
    throw new CatalogError(
      'UPSTREAM_LIMIT',
      `Shopify's storefront serves at most ${SHOPIFY_PAGINATION_CAP} products (page × limit) and every page up to that was full; read larger catalogs through the Admin API (upstream.format "shopify_admin", with AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN) or split them into collections`,
      { url: redactUrl(listing.href), status: 200, cap: SHOPIFY_PAGINATION_CAP, pageSize },
    );
  }
}
