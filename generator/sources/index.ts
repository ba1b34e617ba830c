/**
 * The fetchUpstream stage: reads the merchant's catalog from its store (a Shopify
 * storefront, the WooCommerce Store API, or a native document in the spec's shape, from
 * a URL or a file) and returns it normalised into canonical records, plus the products that
 * could not be mapped. Every source hands its items on a page, a file chunk or a run of
 * lines at a time, and each batch is normalised as it arrives (`normaliseBatches`). Upstream failures (unreachable, timeout, 5xx after retries,
 * truncated, oversized or wrong-shaped data) throw a CatalogError with an UPSTREAM_*
 * code; an empty catalog is not an error here, because refusing it (`CATALOG_EMPTY`,
 * unless `--allow-empty`) or a sharp shrink (against the last published bundle) is the
 * pipeline's decision.
 */

import type { ResolvedConfig } from '../config.js';
import type { HttpClient } from '../http/client.js';
import { redactUrl } from '../http/redact-url.js';
import type { Logger } from '../logger.js';
import {
  createNormaliser,
  type NormaliseMemo,
  type NormaliseResult,
  type Normaliser,
  type ShelvedProducts,
} from '../normalise/index.js';
import type { MapContext, NormalisedProduct, RejectedProduct, UpstreamFormat } from '../normalise/types.js';
import { spillingShelf } from '../product-store/product-shelf.js';
import {
  buildListingUrl,
  detectFormatFromDocument,
  detectFormatFromUrl,
  detectionError,
  extractProductList,
  resolveSourceLocation,
} from './documents.js';
import { readFileBatches } from './read-file.js';
import { fetchShopifyPages, SHOPIFY_MAX_PAGE_SIZE } from './shopify.js';
import { readAdminToken } from './shopify-admin/admin-endpoint.js';
import type { AdminBatch } from './shopify-admin/read-admin-products.js';
import type { SourceBatch } from './source-batch.js';
import type { SourceFormat } from './source-formats.js';
import { fetchWooPages, WOO_MAX_PAGE_SIZE } from './woocommerce.js';

export type { NormalisedProduct, RejectedProduct, UpstreamFormat } from '../normalise/types.js';
export type { SourceFormat } from './source-formats.js';

export type UpstreamConfig = ResolvedConfig['upstream'];

export interface UpstreamContext {
  /** Directory a relative file source resolves against. */
  configDir: string;
  /** The storefront (`storefront_url`), no trailing slash; product pages are built on it. */
  siteUrl: string;
  /** ISO 4217 code of the merchant. */
  currency: string;
  logger: Logger;
  signal?: AbortSignal;
  /** Used unless `upstream.user_agent` is set; see `formatUserAgent`. */
  userAgent: string;
  /** The process environment: where a credential that must not live in the config file is read. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What unchanged items mapped to in earlier builds (the build cache's), if any. */
  memo?: NormaliseMemo;
  /**
   * From how many products the mapped products go into a file as they arrive instead of
   * the heap (product-store/product-shelf.ts); never when unset.
   */
  productsOnDiskFrom?: number;
}

export interface UpstreamResult {
  format: SourceFormat;
  /** In upstream order, de-duplicated by upstream id; empty when they are on disk (`shelved`). */
  products: NormalisedProduct[];
  /**
   * The products in a file, when there were `productsOnDiskFrom` of them or more: the
   * caller owns the file and closes it.
   */
  shelved?: ShelvedProducts;
  rejected: RejectedProduct[];
  /** HTTP requests made, retries included (0 for a file). */
  requests: number;
  /** The URL or absolute file path that was read. */
  source: string;
}

/** `agent-catalog/<version> (+<site_url>)`: names the tool and where to reach whoever runs it. */
export function formatUserAgent(version: string, siteUrl: string): string {
  return `agent-catalog/${version} (+${siteUrl})`;
}

function adminBatches(batches: AsyncIterable<AdminBatch>): AsyncGenerator<SourceBatch> {
  return mapBatches(batches, (batch) => ({ format: 'shopify_admin', shape: 'shopify', ...batch }));
}

function pageBatches(pages: AsyncIterable<unknown[]>, format: UpstreamFormat): AsyncGenerator<SourceBatch> {
  return mapBatches(pages, (items) => ({ format, shape: format, items }));
}

async function* mapBatches<T>(
  runs: AsyncIterable<T>,
  toBatch: (run: T) => SourceBatch,
): AsyncGenerator<SourceBatch> {
  for await (const run of runs) yield toBatch(run);
}

async function* readFromFile(path: string, upstream: UpstreamConfig): AsyncGenerator<SourceBatch> {
  if (upstream.format === 'shopify_admin') {
    const { readAdminExportFile } = await import('./shopify-admin/read-admin-products.js');
    yield* adminBatches(readAdminExportFile(path, upstream.max_response_bytes));
    return;
  }
  yield* readFileBatches(path, { format: upstream.format, maxItemBytes: upstream.max_response_bytes });
}

async function* readFromUrl(
  client: HttpClient,
  url: URL,
  upstream: UpstreamConfig,
  context: UpstreamContext,
): AsyncGenerator<SourceBatch> {
  const workers = upstream.max_concurrency;
  if (upstream.format === 'shopify_admin') {
    const { fetchAdminProducts } = await import('./shopify-admin/read-admin-products.js');
    const { setTimeout: sleep } = await import('node:timers/promises');
    const batches = fetchAdminProducts(client, url, {
      token: readAdminToken(context.env ?? {}),
      maxLineBytes: upstream.max_response_bytes,
      sleep: (ms) => sleep(ms, undefined, context.signal ? { signal: context.signal } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    yield* adminBatches(batches);
    return;
  }
  let format = upstream.format ?? detectFormatFromUrl(url);
  if (format === undefined || format === 'native') {
    // A native catalog over HTTP is one response, capped by max_response_bytes like any other.
    const response = await client.getJson(url.href);
    format ??= detectFormatFromDocument(response.body);
    if (format === undefined) throw detectionError(redactUrl(url.href));
    if (format === 'native') {
      const items = extractProductList(response.body, format, redactUrl(url.href));
      yield { format, shape: format, items };
      return;
    }
  }
  const listing = buildListingUrl(url, format);
  if (format === 'shopify') {
    const pageSize = upstream.page_size ?? SHOPIFY_MAX_PAGE_SIZE;
    yield* pageBatches(fetchShopifyPages(client, listing, { pageSize, workers }), format);
    return;
  }
  const pageSize = Math.min(upstream.page_size ?? WOO_MAX_PAGE_SIZE, WOO_MAX_PAGE_SIZE);
  yield* pageBatches(fetchWooPages(client, listing, { pageSize, workers }), format);
}

/**
 * Crawls a store over HTTP. The HTTP client (and undici under it, a twelfth of a small
 * build's start-up) is loaded only here, so a build from a file never pays for it.
 */
async function* fetchOverHttp(
  url: URL,
  upstream: UpstreamConfig,
  context: UpstreamContext,
  counter: { requests: number },
): AsyncGenerator<SourceBatch> {
  const { createHttpClient } = await import('../http/client.js');
  const client = createHttpClient({
    userAgent: upstream.user_agent ?? context.userAgent,
    connectTimeoutMs: upstream.connect_timeout_ms,
    requestTimeoutMs: upstream.request_timeout_ms,
    timeoutMs: upstream.timeout_ms,
    retries: upstream.retries,
    maxResponseBytes: upstream.max_response_bytes,
    maxConcurrency: upstream.max_concurrency,
    requestsPerMinute: upstream.requests_per_minute,
    logger: context.logger,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  try {
    yield* readFromUrl(client, url, upstream, context);
  } finally {
    counter.requests = client.requests;
    await client.close();
  }
}

export async function fetchUpstream(
  upstream: UpstreamConfig,
  context: UpstreamContext,
): Promise<UpstreamResult> {
  const location = resolveSourceLocation(upstream.source, context.configDir);
  const counter = { requests: 0 };
  const batches =
    location.kind === 'file'
      ? readFromFile(location.path, upstream)
      : fetchOverHttp(location.url, upstream, context, counter);
  const mapContext: MapContext = {
    siteUrl: context.siteUrl.replace(/\/+$/, ''),
    currency: context.currency,
    comingSoonTag: upstream.coming_soon_tag,
  };
  const read = await normaliseBatches(batches, mapContext, context);
  const { normalised, format } = read;
  const source = location.kind === 'file' ? location.path : redactUrl(location.url.href);
  const kept = normalised.shelved?.slugs.kept;
  context.logger.debug(
    `upstream ${format} ${source}: ${read.items} items, ${kept ?? normalised.products.length} products, ${normalised.rejected.length} rejected, ${normalised.duplicates} duplicates, ${read.hidden} hidden from shoppers, ${counter.requests} requests`,
  );
  return {
    format,
    products: normalised.products,
    ...(normalised.shelved !== undefined ? { shelved: normalised.shelved } : {}),
    rejected: normalised.rejected,
    requests: counter.requests,
    source,
  };
}

/**
 * Maps each batch as it arrives, so raw items are dropped page by page. Every source yields
 * at least one batch, an empty one for an empty catalog, so the format is always known.
 * Once the build's deadline has passed (`signal`), the next batch stops the read: a file
 * of a million products is not read to its end for nothing.
 */
async function normaliseBatches(
  batches: AsyncIterable<SourceBatch>,
  context: MapContext,
  { signal, memo, productsOnDiskFrom }: Pick<UpstreamContext, 'signal' | 'memo' | 'productsOnDiskFrom'>,
): Promise<{ format: SourceFormat; normalised: NormaliseResult; items: number; hidden: number }> {
  const shelf = productsOnDiskFrom === undefined ? undefined : spillingShelf(productsOnDiskFrom);
  let current: { format: SourceFormat; normaliser: Normaliser } | undefined;
  let items = 0;
  let hidden = 0;
  try {
    for await (const batch of batches) {
      signal?.throwIfAborted();
      current ??= { format: batch.format, normaliser: createNormaliser(batch.shape, context, memo, shelf) };
      for (const item of batch.items) current.normaliser.add(item);
      items += batch.items.length;
      hidden += batch.hidden ?? 0;
    }
    if (current === undefined) throw new TypeError('an upstream source ended without a batch');
    return { format: current.format, normalised: current.normaliser.finish(), items, hidden };
  } catch (error) {
    // An upstream that fails after some products leaves no products file behind.
    shelf?.close();
    throw error;
  }
}
