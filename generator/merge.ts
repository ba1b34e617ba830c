/**
 * The merge stage: combines normalised upstream products with the merchant's content
 * files into planned products. Precedence per field: the merchant's content wins for the
 * descriptive fields (flavor, description, packaging, ingredients, nutrition, benefits,
 * certifications); the upstream alone decides name, price, currency, availability and
 * the URLs (they change in the store, not in Markdown); `shipping` comes from the config.
 * Pure: no files, no network.
 */

import { orderProductRecord, recordOfSeedProduct } from '../record/build-record.js';
import type { ProductContent } from './content/load-content.js';
import type { Product, ProductRecord } from './model.js';
import type { PlannedProduct } from './plan.js';

/** A product as an upstream adapter hands it over (see `sources/`). */
export interface UpstreamProduct {
  sourceId: string;
  /** A full record when the adapter knows the store's variants; a seed Product gets one variant in the merge. */
  record: Product | ProductRecord;
  imageUrl?: string;
  updatedAt?: string;
  tags?: readonly string[];
}

/** A product left out of the catalog, and why; a warning, or fatal under --strict. */
export interface LeftOutProduct {
  id: string;
  name?: string;
  reason: string;
}

export interface MergeInput {
  upstream: readonly UpstreamProduct[];
  content: readonly ProductContent[];
  /** Copied into every product when set (config `shipping`). */
  shipping?: string;
}

export interface MergeResult {
  /** Sorted by slug, slugs unique. */
  products: PlannedProduct[];
  /** Upstream products dropped by the merge (a second product with the same slug). */
  leftOut: LeftOutProduct[];
  /** Content files whose slug no upstream product has; see `checkContentUse`. */
  unmatched: ProductContent[];
}

/**
 * The upstream product as a canonical record. An adapter that knows the store's variants
 * hands over a full record; a bare seed Product gets one variant, its own.
 */
function toProductRecord(product: UpstreamProduct): ProductRecord {
  const { record } = product;
  if (isProductRecord(record)) return record;
  return recordOfSeedProduct(record, product.sourceId, {
    ...(product.imageUrl === undefined ? {} : { imageUrl: product.imageUrl }),
    ...(product.tags === undefined ? {} : { tags: product.tags }),
  });
}

function isProductRecord(record: Product | ProductRecord): record is ProductRecord {
  return record.id !== undefined && Array.isArray(record.variants) && record.variants.length > 0;
}

function applyContent(
  product: UpstreamProduct,
  content: ProductContent | undefined,
  shipping?: string,
): ProductRecord {
  const record = toProductRecord(product);
  const fields = content?.fields ?? {};
  return orderProductRecord({
    ...record,
    flavor: fields.flavor ?? record.flavor,
    description: fields.description ?? record.description ?? null,
    packaging: fields.packaging ?? record.packaging,
    ingredients: fields.ingredients ?? record.ingredients ?? null,
    nutrition: fields.nutrition ?? record.nutrition ?? null,
    benefits: fields.benefits ?? record.benefits ?? null,
    certifications: fields.certifications ?? record.certifications ?? null,
    shipping: shipping ?? record.shipping,
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keeps the first upstream product per slug (upstream order) and leaves out later ones with a reason naming both. */
export function mergeProducts(input: MergeInput): MergeResult {
  const bySlug = new Map<string, UpstreamProduct>();
  const leftOut: LeftOutProduct[] = [];
  for (const product of input.upstream) {
    const first = bySlug.get(product.record.slug);
    if (first) {
      leftOut.push({
        id: product.sourceId,
        name: product.record.name,
        reason: `product ${product.sourceId} (${JSON.stringify(product.record.name)}) has the slug "${product.record.slug}" of upstream product ${first.sourceId} already`,
      });
      continue;
    }
    bySlug.set(product.record.slug, product);
  }
  const contentBySlug = new Map(input.content.map((item) => [item.slug, item]));
  const unmatched = input.content.filter((item) => !bySlug.has(item.slug));
  const products = [...bySlug.values()]
    .sort((a, b) => compareText(a.record.slug, b.record.slug))
    .map((product) => ({
      record: applyContent(product, contentBySlug.get(product.record.slug), input.shipping),
      sourceId: product.sourceId,
      ...(product.imageUrl !== undefined ? { imageUrl: product.imageUrl } : {}),
      ...(product.updatedAt !== undefined ? { updatedAt: product.updatedAt } : {}),
    }));
  return { products, leftOut, unmatched };
}
