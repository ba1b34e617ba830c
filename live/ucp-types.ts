/**
 * The Universal Commerce Protocol's catalog shapes (release 2026-04-08) as this catalog
 * publishes them: the subset of `types/product.json`, `types/variant.json` and friends the
 * canonical product record can fill. Prices are integers in ISO 4217 minor units with their
 * currency. The vendored schemas under `live/ucp-schemas/` are the reference; the tests
 * validate real answers against them.
 */

export const UCP_VERSION = '2026-04-08';

export const SEARCH_CAPABILITY = 'dev.ucp.shopping.catalog.search';
export const LOOKUP_CAPABILITY = 'dev.ucp.shopping.catalog.lookup';

export interface UcpPrice {
  amount: number;
  currency: string;
}

export interface UcpPriceRange {
  min: UcpPrice;
  max: UcpPrice;
}

export interface UcpSelectedOption {
  name: string;
  label: string;
}

export interface UcpMedia {
  type: 'image';
  url: string;
  alt_text?: string;
  width?: number;
  height?: number;
}

export interface UcpVariant {
  id: string;
  sku?: string;
  barcodes?: { type: string; value: string }[];
  title: string;
  description: { plain: string };
  url?: string;
  price: UcpPrice;
  list_price?: UcpPrice;
  availability: { available: boolean; status: string };
  options?: UcpSelectedOption[];
  media?: UcpMedia[];
  /** lookup_catalog only: which request ids resolved to this variant. */
  inputs?: { id: string; match: 'exact' | 'featured' }[];
}

export interface UcpProduct {
  id: string;
  handle: string;
  title: string;
  description: { plain: string };
  url: string;
  categories?: { value: string; taxonomy: 'merchant' }[];
  price_range: UcpPriceRange;
  list_price_range?: UcpPriceRange;
  media?: UcpMedia[];
  options?: { name: string; values: { label: string }[] }[];
  variants: UcpVariant[];
  tags?: string[];
  metadata?: Record<string, unknown>;
}

export interface UcpMessage {
  type: 'info' | 'warning' | 'error';
  code: string;
  content: string;
  path?: string;
  severity?: 'recoverable' | 'unrecoverable';
}

export interface UcpEnvelope {
  version: string;
  status?: 'success' | 'error';
  capabilities: Record<string, { version: string }[]>;
}

export function ucpEnvelope(capability: string, status?: 'error'): UcpEnvelope {
  return {
    version: UCP_VERSION,
    ...(status ? { status } : {}),
    capabilities: { [capability]: [{ version: UCP_VERSION }] },
  };
}
