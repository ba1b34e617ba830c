/**
 * Where the upstream is (a URL or a file next to the config) and what shape its
 * documents have: detecting the format from the URL path or from the first document,
 * and pulling the product list out of a page, refusing with UPSTREAM_SHAPE anything
 * that is not the shape its format promises (a wrong-shaped answer must fail the build
 * rather than publish an empty catalog).
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CatalogError } from '../errors.js';
import type { UpstreamFormat } from '../normalise/types.js';

export type SourceLocation = { kind: 'url'; url: URL } | { kind: 'file'; path: string };

export function resolveSourceLocation(source: string, configDir: string): SourceLocation {
  if (/^https?:\/\//i.test(source)) return { kind: 'url', url: new URL(source) };
  if (/^file:/i.test(source)) return { kind: 'file', path: fileURLToPath(source) };
  return { kind: 'file', path: isAbsolute(source) ? source : resolve(configDir, source) };
}

/** `/products.json` is Shopify's storefront, `/wp-json/` WordPress (WooCommerce's Store API). */
export function detectFormatFromUrl(url: URL): UpstreamFormat | undefined {
  if (/\/products\.json$/i.test(url.pathname)) return 'shopify';
  if (/\/wp-json\//i.test(url.pathname) || url.searchParams.has('rest_route')) return 'woocommerce';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function detectFormatFromDocument(document: unknown): UpstreamFormat | undefined {
  if (Array.isArray(document)) return detectFormatFromFirstItem('array', document[0], () => false);
  if (!isRecord(document) || !Array.isArray(document.products)) return undefined;
  return detectFormatFromFirstItem('object', document.products[0], (key) => key in document);
}

function looksLikeWoo(item: unknown): boolean {
  return isRecord(item) && ('prices' in item || 'permalink' in item);
}

function looksLikeShopify(item: unknown): boolean {
  return isRecord(item) && ('variants' in item || 'body_html' in item || 'handle' in item);
}

/**
 * The format a product list points to, from what a streamed read knows early: the root's
 * kind, the list's first item, and (only for a list with no readable first item) whether
 * the root object has a member that only a native catalog has.
 */
export function detectFormatFromFirstItem(
  root: 'array' | 'object',
  first: unknown,
  hasMember: (key: string) => boolean,
): UpstreamFormat {
  if (root === 'array') return looksLikeWoo(first) ? 'woocommerce' : 'native';
  if (isRecord(first)) return looksLikeShopify(first) ? 'shopify' : 'native';
  return hasMember('merchant') || hasMember('generated') ? 'native' : 'shopify';
}

/** JSON Lines hold one product a line, of any format: the first line's fields tell which. */
export function detectFormatFromLine(first: unknown): UpstreamFormat {
  if (looksLikeWoo(first)) return 'woocommerce';
  return looksLikeShopify(first) ? 'shopify' : 'native';
}

export function detectionError(source: string): CatalogError {
  return new CatalogError(
    'UPSTREAM_SHAPE',
    `cannot tell the upstream format of ${source}; pass --source-format (native, shopify, shopify_admin or woocommerce) or set upstream.format in the config`,
    { url: source, status: undefined },
  );
}

/** Where a store root given as the source serves its products (e.g. https://shop.example → /products.json). */
export function buildListingUrl(url: URL, format: UpstreamFormat): URL {
  const listing = new URL(url.href);
  const path = listing.pathname.replace(/\/+$/, '');
  if (format === 'shopify' && !/\/products\.json$/i.test(path)) listing.pathname = `${path}/products.json`;
  if (format === 'woocommerce' && detectFormatFromUrl(listing) === undefined) {
    listing.pathname = `${path}/wp-json/wc/store/v1/products`;
  }
  return listing;
}

function shapeError(where: string, expected: string): CatalogError {
  return new CatalogError('UPSTREAM_SHAPE', `upstream document at ${where} is not ${expected}`, {
    url: where,
    status: 200,
    expected,
  });
}

/** What a document of `format` must be, for the error that says it is not. */
export function describeExpectedList(format: UpstreamFormat): string {
  if (format === 'woocommerce') return 'a WooCommerce Store API product array';
  return format === 'shopify'
    ? 'a Shopify products.json page ({ "products": [...] })'
    : 'a catalog ({ "products": [...] } or an array of products)';
}

export function extractProductList(document: unknown, format: UpstreamFormat, where: string): unknown[] {
  if (format === 'woocommerce') {
    if (!Array.isArray(document)) throw shapeError(where, describeExpectedList(format));
    return document;
  }
  if (format === 'native' && Array.isArray(document)) return document;
  if (isRecord(document) && Array.isArray(document.products)) return document.products;
  throw shapeError(where, describeExpectedList(format));
}
