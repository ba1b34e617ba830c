/**
 * What every upstream adapter produces and what the mapping functions need. A mapped
 * product is the canonical record (`record/product-record.ts`: the seed's fields plus
 * ids, brand, images, options, variants) plus the build facts no document publishes as
 * a field (last-modified time, the description as Markdown). The pipeline merges the
 * merchant's content over `record` by `record.slug`, which is therefore the upstream
 * handle or slug.
 */
import type { ProductRecord } from '../model.js';

export type UpstreamFormat = 'native' | 'shopify' | 'woocommerce';

export interface NormalisedProduct {
  /** Stable upstream identifier (Shopify/WooCommerce product id, native slug). */
  sourceId: string;
  record: ProductRecord;
  /** Absolute http(s) URL of the main image (`record.images[0]`), kept while the feed still reads it. */
  imageUrl?: string;
  /** Upstream last-modified time (ISO 8601), when known. */
  updatedAt?: string;
  /** The description as Markdown, when its HTML had structure plain text cannot carry (see html-text.ts). */
  descriptionMarkdown?: string;
  /**
   * A WooCommerce grouped product's children, by product id; `normaliseProducts`
   * summarises it from theirs once the whole crawl is mapped. `ownPrice` false: the store gave the
   * group no price of its own, so it cannot stand without a child.
   */
  grouped?: { childIds: string[]; ownPrice: boolean };
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
