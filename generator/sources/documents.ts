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
  if (Array.isArray(document)) {
    const first: unknown = document[0];
    return isRecord(first) && ('prices' in first || 'permalink' in first) ? 'woocommerce' : 'native';
  }
  if (!isRecord(document) || !Array.isArray(document.products)) return undefined;
  const first: unknown = document.products[0];
  if (isRecord(first))
    return 'variants' in first || 'body_html' in first || 'handle' in first ? 'shopify' : 'native';
  return 'merchant' in document || 'generated' in document ? 'native' : 'shopify';
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

export function extractProductList(document: unknown, format: UpstreamFormat, where: string): unknown[] {
  if (format === 'woocommerce') {
    if (!Array.isArray(document)) throw shapeError(where, 'a WooCommerce Store API product array');
    return document;
  }
  if (format === 'native' && Array.isArray(document)) return document;
  if (isRecord(document) && Array.isArray(document.products)) return document.products;
  throw shapeError(
    where,
    format === 'shopify'
      ? 'a Shopify products.json page ({ "products": [...] })'
      : 'a catalog ({ "products": [...] } or an array of products)',
  );
}
