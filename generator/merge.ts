/**
 * The merge stage: combines normalised upstream products with the merchant's content
 * files into planned products. Precedence per field: the merchant's content wins for the
 * descriptive fields (flavor, brand, description, packaging, ingredients, nutrition,
 * benefits, certifications); the upstream alone decides name, prices, currency,
 * availability, variants and the URLs (they change in the store, not in Markdown). From
 * the config: `shipping`, only on products that ship (a digital product gets no shipping
 * sentence), and the brand rule (`upstream.brand_source`: the store's vendor, falling
 * back to the merchant's brand, or always the merchant's). Pure: no files, no network.
 */

import { orderProductRecord } from '../record/build-record.js';
import { contentKeysOf } from './content/content-keys.js';
import type { ProductContent } from './content/load-content.js';
import type { ProductRecord } from './model.js';
import type { PlannedProduct } from './plan.js';

/** A product as an upstream adapter hands it over (see `sources/`): a full canonical record. */
export interface UpstreamProduct {
  sourceId: string;
  record: ProductRecord;
  imageUrl?: string;
  updatedAt?: string;
  descriptionMarkdown?: string;
}

/** Whose name a product's brand is (config `upstream.brand_source`, `merchant.brand`). */
export interface BrandRule {
  source: 'vendor' | 'merchant';
  /** The merchant's brand (merchant.brand, or its name). */
  merchant: string;
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
  /** Copied into every product that ships, when set (config `shipping`). */
  shipping?: string;
  /** Without it, a product keeps the brand its store gave (tests of other stages). */
  brand?: BrandRule;
}

export interface MergeResult {
  /** Sorted by slug, slugs unique. */
  products: PlannedProduct[];
  /** Upstream products dropped by the merge (a second product with the same slug). */
  leftOut: LeftOutProduct[];
  /** Content files whose slug no upstream product has; see `checkContentUse`. */
  unmatched: ProductContent[];
}

function decideBrand(record: ProductRecord, content: string | undefined, rule: BrandRule | undefined) {
  if (content !== undefined) return content;
  if (rule === undefined) return record.brand;
  return rule.source === 'vendor' ? (record.brand ?? rule.merchant) : rule.merchant;
}

function applyContent(
  record: ProductRecord,
  content: ProductContent | undefined,
  input: Pick<MergeInput, 'shipping' | 'brand'>,
): ProductRecord {
  const fields = content?.fields ?? {};
  return orderProductRecord({
    ...record,
    flavor: fields.flavor ?? record.flavor,
    brand: decideBrand(record, fields.brand, input.brand),
    description: fields.description ?? record.description ?? null,
    packaging: fields.packaging ?? record.packaging,
    ingredients: fields.ingredients ?? record.ingredients ?? null,
    nutrition: fields.nutrition ?? record.nutrition ?? null,
    benefits: fields.benefits ?? record.benefits ?? null,
    certifications: fields.certifications ?? record.certifications ?? null,
    // A product that needs no shipping (an eBook) must not say "Ships to US: $5.00".
    shipping: record.requires_shipping ? (input.shipping ?? record.shipping) : undefined,
  });
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why `product` is left out: `first`, earlier upstream, has its slug. */
export function describeSlugClash(product: UpstreamProduct, first: UpstreamProduct): LeftOutProduct {
  return {
    id: product.sourceId,
    name: product.record.name,
    reason: `product ${product.sourceId} (${JSON.stringify(product.record.name)}) has the slug "${product.record.slug}" of upstream product ${first.sourceId} already`,
  };
}

/** The merge's work on one product at a time, in slug order, and the content files none used. */
export interface ContentMerger {
  planProduct(product: UpstreamProduct): PlannedProduct;
  /** The content files no product planned so far matched; ask once every product is planned. */
  unmatched(): ProductContent[];
}

export function createContentMerger(input: Omit<MergeInput, 'upstream'>): ContentMerger {
  // A content file's slug is in its compared form already (load-content.ts); a store's
  // handle is kept as written, so it is compared in that form too, and so is its page's
  // name, which names the file of a slug too long for one (content-keys.ts).
  const contentBySlug = new Map(input.content.map((item) => [item.slug, item]));
  const used = new Set<ProductContent>();
  return {
    planProduct(product) {
      const content = contentKeysOf(product.record.slug)
        .map((key) => contentBySlug.get(key))
        .find((item) => item !== undefined);
      if (content !== undefined) used.add(content);
      return planProduct(product, content, input);
    },
    unmatched: () => input.content.filter((item) => !used.has(item)),
  };
}

/** Keeps the first upstream product per slug (upstream order) and leaves out later ones with a reason naming both. */
export function mergeProducts(input: MergeInput): MergeResult {
  const bySlug = new Map<string, UpstreamProduct>();
  const leftOut: LeftOutProduct[] = [];
  for (const product of input.upstream) {
    const first = bySlug.get(product.record.slug);
    if (first) {
      leftOut.push(describeSlugClash(product, first));
      continue;
    }
    bySlug.set(product.record.slug, product);
  }
  const merger = createContentMerger(input);
  const products = [...bySlug.values()]
    .sort((a, b) => compareText(a.record.slug, b.record.slug))
    .map((product) => merger.planProduct(product));
  return { products, leftOut, unmatched: merger.unmatched() };
}

function planProduct(
  product: UpstreamProduct,
  content: ProductContent | undefined,
  input: Pick<MergeInput, 'shipping' | 'brand'>,
): PlannedProduct {
  return {
    record: applyContent(product.record, content, input),
    sourceId: product.sourceId,
    ...(product.imageUrl !== undefined ? { imageUrl: product.imageUrl } : {}),
    ...(product.updatedAt !== undefined ? { updatedAt: product.updatedAt } : {}),
    ...(product.descriptionMarkdown !== undefined && content?.fields.description === undefined
      ? { descriptionMarkdown: product.descriptionMarkdown }
      : {}),
  };
}
