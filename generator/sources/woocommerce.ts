/**
 * Crawls the WooCommerce Store API (`/wp-json/wc/store/v1/products?per_page=…&page=…`).
 * Page 1 tells the total through `X-WP-TotalPages`; the remaining pages are then fetched
 * a few at a time, each handed on in order as soon as the pages before it are in. Without
 * that header (a proxy may strip it) the crawl goes on until a short page, as on Shopify.
 * Bounded by MAX_PAGES; past it, UPSTREAM_LIMIT.
 */

import { CatalogError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { redactUrl } from '../http/redact-url.js';
import { extractProductList } from './documents.js';
import { buildPageUrl, fetchPagesInOrder } from './paginate.js';

/** The Store API accepts per_page from 1 to 100. */
export const WOO_MAX_PAGE_SIZE = 100;
export const WOO_MAX_PAGES = 1_000;

function readTotalPages(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number.parseInt(value, 10);
}

function limitError(listing: URL, pages: number): CatalogError {
  return new CatalogError(
    'UPSTREAM_LIMIT',
    `the WooCommerce store has more than ${WOO_MAX_PAGES} pages of products (${pages}); this is more than one build reads`,
    { url: redactUrl(listing.href), status: 200, pages, maxPages: WOO_MAX_PAGES },
  );
}

/** Yields the store's pages in order, each as soon as it and every page before it are in. */
export async function* fetchWooPages(
  client: HttpClient,
  listing: URL,
  options: { pageSize: number; workers: number },
): AsyncGenerator<unknown[]> {
  const pageSize = Math.min(WOO_MAX_PAGE_SIZE, Math.max(1, options.pageSize));
  const fetchPage = async (page: number, signal?: AbortSignal) => {
    const url = buildPageUrl(listing, 'per_page', pageSize, page);
    const response = await client.getJson(url, signal);
    return { items: extractProductList(response.body, 'woocommerce', redactUrl(url)), response };
  };
  const first = await fetchPage(1);
  const totalPages = readTotalPages(first.response.headers['x-wp-totalpages']);
  if (totalPages !== undefined && totalPages > WOO_MAX_PAGES) throw limitError(listing, totalPages);
  yield first.items;
  const known = totalPages !== undefined;
  if (known ? totalPages <= 1 : first.items.length < pageSize) return;
  const pages = fetchPagesInOrder({
    firstPage: 2,
    lastPage: known ? totalPages : WOO_MAX_PAGES,
    pageSize,
    workers: options.workers,
    stopAtShortPage: !known,
    fetchPage: async (page, signal) => (await fetchPage(page, signal)).items,
  });
  let short = false;
  for await (const page of pages) {
    short = page.length < pageSize;
    yield page;
  }
  if (!known && !short) throw limitError(listing, WOO_MAX_PAGES);
}
