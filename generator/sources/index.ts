/**
 * The fetchUpstream stage: reads the merchant's catalog from its store (a Shopify
 * storefront, the WooCommerce Store API, or a native document in the spec's shape, from
 * a URL or a file) and returns it normalised into canonical records, plus the products that
 * could not be mapped. Upstream failures (unreachable, timeout, 5xx after retries,
 * truncated, oversized or wrong-shaped data) throw a CatalogError with an UPSTREAM_*
 * code; an empty catalog is not an error here, because refusing it (`CATALOG_EMPTY`,
 * unless `--allow-empty`) or a sharp shrink (against the last published bundle) is the
 * pipeline's decision.
 */

import type { ResolvedConfig } from '../config.js';
import { CatalogError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { redactUrl } from '../http/redact-url.js';
import type { Logger } from '../logger.js';
import { normaliseProducts } from '../normalise/index.js';
import type { MapContext, NormalisedProduct, RejectedProduct, UpstreamFormat } from '../normalise/types.js';
import {
  buildListingUrl,
  detectFormatFromDocument,
  detectFormatFromUrl,
  extractProductList,
  resolveSourceLocation,
} from './documents.js';
import { readJsonFile } from './read-file.js';
import { fetchShopifyProducts, SHOPIFY_MAX_PAGE_SIZE } from './shopify.js';
import { readAdminToken } from './shopify-admin/admin-endpoint.js';
import type { AdminRead } from './shopify-admin/read-admin-products.js';
import type { SourceFormat } from './source-formats.js';
import { fetchWooProducts, WOO_MAX_PAGE_SIZE } from './woocommerce.js';

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
}

export interface UpstreamResult {
  format: SourceFormat;
  /** In upstream order, de-duplicated by upstream id. */
  products: NormalisedProduct[];
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

function detectionError(url: string): CatalogError {
  const where = redactUrl(url);
  return new CatalogError(
    'UPSTREAM_SHAPE',
    `cannot tell the upstream format of ${where}; pass --source-format (native, shopify, shopify_admin or woocommerce) or set upstream.format in the config`,
    { url: where, status: undefined },
  );
}

/** What a source read gives the normaliser: upstream items of one mapping format. */
interface SourceRead {
  format: SourceFormat;
  /** The mapper the items take (`shopify_admin` items are storefront-shaped). */
  shape: UpstreamFormat;
  items: unknown[];
  /** Items left out because shoppers cannot see them (the Admin API's drafts and the like). */
  hidden?: number;
}

function fromAdmin(read: AdminRead): SourceRead {
  return { format: 'shopify_admin', shape: 'shopify', items: read.items, hidden: read.hidden };
}

async function readFromFile(path: string, upstream: UpstreamConfig): Promise<SourceRead> {
  if (upstream.format === 'shopify_admin') {
    const { readAdminExportFile } = await import('./shopify-admin/read-admin-products.js');
    return fromAdmin(await readAdminExportFile(path, upstream.max_response_bytes));
  }
  const document = await readJsonFile(path, upstream.max_response_bytes);
  const format = upstream.format ?? detectFormatFromDocument(document);
  if (format === undefined) throw detectionError(path);
  return { format, shape: format, items: extractProductList(document, format, path) };
}

async function readFromUrl(
  client: HttpClient,
  url: URL,
  upstream: UpstreamConfig,
  context: UpstreamContext,
): Promise<SourceRead> {
  const workers = upstream.max_concurrency;
  if (upstream.format === 'shopify_admin') {
    const { fetchAdminProducts } = await import('./shopify-admin/read-admin-products.js');
    const { setTimeout: sleep } = await import('node:timers/promises');
    const read = await fetchAdminProducts(client, url, {
      token: readAdminToken(context.env ?? {}),
      maxLineBytes: upstream.max_response_bytes,
      sleep: (ms) => sleep(ms, undefined, context.signal ? { signal: context.signal } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    return fromAdmin(read);
  }
  let format = upstream.format ?? detectFormatFromUrl(url);
  if (format === undefined || format === 'native') {
    const response = await client.getJson(url.href);
    format ??= detectFormatFromDocument(response.body);
    if (format === undefined) throw detectionError(url.href);
    if (format === 'native')
      return { format, shape: format, items: extractProductList(response.body, format, redactUrl(url.href)) };
  }
  const listing = buildListingUrl(url, format);
  if (format === 'shopify') {
    const pageSize = upstream.page_size ?? SHOPIFY_MAX_PAGE_SIZE;
    return {
      format,
      shape: format,
      items: await fetchShopifyProducts(client, listing, { pageSize, workers }),
    };
  }
  const pageSize = Math.min(upstream.page_size ?? WOO_MAX_PAGE_SIZE, WOO_MAX_PAGE_SIZE);
  return { format, shape: format, items: await fetchWooProducts(client, listing, { pageSize, workers }) };
}

/**
 * Crawls a store over HTTP. The HTTP client (and undici under it, a twelfth of a small
 * build's start-up) is loaded only here, so a build from a file never pays for it.
 */
async function fetchOverHttp(
  url: URL,
  upstream: UpstreamConfig,
  context: UpstreamContext,
): Promise<{ read: SourceRead; requests: number }> {
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
    return {
      read: await readFromUrl(client, url, upstream, context),
      requests: client.requests,
    };
  } finally {
    await client.close();
  }
}

export async function fetchUpstream(
  upstream: UpstreamConfig,
  context: UpstreamContext,
): Promise<UpstreamResult> {
  const location = resolveSourceLocation(upstream.source, context.configDir);
  const { read, requests } =
    location.kind === 'file'
      ? { read: await readFromFile(location.path, upstream), requests: 0 }
      : await fetchOverHttp(location.url, upstream, context);
  const mapContext: MapContext = {
    siteUrl: context.siteUrl.replace(/\/+$/, ''),
    currency: context.currency,
    comingSoonTag: upstream.coming_soon_tag,
  };
  const normalised = normaliseProducts(read.items, read.shape, mapContext);
  const source = location.kind === 'file' ? location.path : redactUrl(location.url.href);
  context.logger.debug(
    `upstream ${read.format} ${source}: ${read.items.length} items, ${normalised.products.length} products, ${normalised.rejected.length} rejected, ${normalised.duplicates} duplicates, ${read.hidden ?? 0} hidden from shoppers, ${requests} requests`,
  );
  return {
    format: read.format,
    products: normalised.products,
    rejected: normalised.rejected,
    requests,
    source,
  };
}
