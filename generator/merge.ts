/**
 * The merge stage: combines normalised upstream products with the merchant's content
 * files into planned products. Precedence per field: the merchant's content wins for the
 * descriptive fields (flavor, description, packaging, ingredients, nutrition, benefits,
 * certifications); the upstream alone decides name, price, currency, availability and
 * the URLs (they change in the store, not in Markdown); `shipping` comes from the config.
 * Pure: no files, no network.
 */
import type { ProductContent } from './content/load-content.js';
import type { Product } from './model.js';
import type { PlannedProduct } from './plan.js';

/** A product as an upstream adapter hands it over (see `sources/`). */
export interface UpstreamProduct {
  sourceId: string;
  record: Product;
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

function applyContent(record: Product, content: ProductContent | undefined, shipping?: string): Product {
  const fields = content?.fields ?? {};
  // Rebuilt field by field in the spec's order, so the JSON key order never depends on the input.
  return {
    name: record.name,
    ...((fields.flavor ?? record.flavor) !== undefined ? { flavor: fields.flavor ?? record.flavor } : {}),
    slug: record.slug,
    url: record.url,
    description: fields.description ?? record.description ?? null,
    ...((fields.packaging ?? record.packaging) !== undefined
      ? { packaging: fields.packaging ?? record.packaging }
      : {}),
    ingredients: fields.ingredients ?? record.ingredients ?? null,
    nutrition: fields.nutrition ?? record.nutrition ?? null,
    benefits: fields.benefits ?? record.benefits ?? null,
    certifications: fields.certifications ?? record.certifications ?? null,
    price: record.price,
    currency: record.currency,
    availability: record.availability,
    ...((shipping ?? record.shipping) !== undefined ? { shipping: shipping ?? record.shipping } : {}),
    purchase_url: record.purchase_url,
  };
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
      record: applyContent(product.record, contentBySlug.get(product.record.slug), input.shipping),
      sourceId: product.sourceId,
      ...(product.imageUrl !== undefined ? { imageUrl: product.imageUrl } : {}),
      ...(product.updatedAt !== undefined ? { updatedAt: product.updatedAt } : {}),
    }));
  return { products, leftOut, unmatched };
}
