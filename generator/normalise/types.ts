/**
 * What every upstream adapter produces and what the mapping functions need. A mapped
 * product is the spec's Product record plus the upstream facts that have no field in it
 * (id, image, last-modified time, tags). The pipeline merges the merchant's content over
 * `record` by `record.slug`, which is therefore the upstream handle or slug.
 */
import type { Product } from '../model.js';

export type UpstreamFormat = 'native' | 'shopify' | 'woocommerce';

export interface NormalisedProduct {
  /** Stable upstream identifier (Shopify/WooCommerce product id, native slug). */
  sourceId: string;
  record: Product;
  /** Absolute http(s) URL of the main image, when the upstream has one. */
  imageUrl?: string;
  /** Upstream last-modified time (ISO 8601), when known. */
  updatedAt?: string;
  tags: string[];
}

/** An upstream product that could not be mapped; the pipeline warns, or fails under --strict. */
export interface RejectedProduct {
  id: string;
  name?: string;
  /** The upstream handle/slug when the item had a readable one, so its content file is not called stale. */
  slug?: string;
  reason: string;
}

export interface MapContext {
  /** No trailing slash. */
  siteUrl: string;
  /** ISO 4217 code of the merchant; every price is in it. */
  currency: string;
  /** Tag that marks a product coming_soon (compared case-insensitively). */
  comingSoonTag: string;
}

export type MapOutcome = { ok: true; product: NormalisedProduct } | { ok: false; rejected: RejectedProduct };
