/**
 * Assembles a canonical product record: the summary fields come from the variants by the
 * one set of rules (`summarise-variants.ts`), and the keys are laid out in one fixed
 * order (the seed's fields in the seed's order, then the extensions), so the published
 * JSON never depends on the order an adapter or a content file happened to use.
 */
import type { PriceRange, Product, ProductRecord, ProductVariant } from './product-record.js';
import { summariseVariants } from './summarise-variants.js';

/**
 * What an adapter knows; `price`, `availability`, `price_range`, `compare_at_price` and
 * `requires_shipping` are derived. `statedPriceRange` is the one exception: a range the
 * store states for the product when it does not list each variant's price (a WooCommerce
 * variable product in the Store API list), published only when the variants show none.
 */
export type RecordInput = Omit<
  ProductRecord,
  'price' | 'availability' | 'price_range' | 'compare_at_price' | 'requires_shipping'
> & { statedPriceRange?: PriceRange };

export function buildProductRecord(input: RecordInput): ProductRecord {
  const { statedPriceRange, ...known } = input;
  const summary = summariseVariants(known.variants);
  const range = summary.price_range ?? statedPriceRange;
  return orderProductRecord({ ...known, ...summary, ...(range !== undefined ? { price_range: range } : {}) });
}

/** The same record with its keys in the canonical order and no undefined values. */
export function orderProductRecord(record: ProductRecord): ProductRecord {
  // Assigned key by key rather than spread: this runs twice per product on every build,
  // and a spread object per optional key was a measurable share of a 10,000-product one.
  const ordered = { name: record.name } as ProductRecord;
  if (record.flavor !== undefined) ordered.flavor = record.flavor;
  ordered.slug = record.slug;
  ordered.url = record.url;
  ordered.description = record.description;
  if (record.packaging !== undefined) ordered.packaging = record.packaging;
  ordered.ingredients = record.ingredients;
  ordered.nutrition = record.nutrition;
  ordered.benefits = record.benefits;
  ordered.certifications = record.certifications;
  ordered.price = record.price;
  ordered.currency = record.currency;
  ordered.availability = record.availability;
  if (record.shipping !== undefined) ordered.shipping = record.shipping;
  ordered.purchase_url = record.purchase_url;
  ordered.id = record.id;
  if (record.brand !== undefined) ordered.brand = record.brand;
  if (record.category !== undefined) ordered.category = record.category;
  ordered.tags = record.tags;
  ordered.images = record.images;
  ordered.options = record.options;
  ordered.variants = record.variants.map(orderVariant);
  if (record.price_range !== undefined) ordered.price_range = record.price_range;
  if (record.compare_at_price !== undefined) ordered.compare_at_price = record.compare_at_price;
  ordered.requires_shipping = record.requires_shipping;
  return ordered;
}

function orderVariant(variant: ProductVariant): ProductVariant {
  const ordered = { id: variant.id, title: variant.title } as ProductVariant;
  if (variant.url !== undefined) ordered.url = variant.url;
  ordered.options = variant.options;
  if (variant.sku !== undefined) ordered.sku = variant.sku;
  if (variant.gtin !== undefined) ordered.gtin = variant.gtin;
  ordered.price = variant.price;
  if (variant.compare_at_price !== undefined) ordered.compare_at_price = variant.compare_at_price;
  ordered.availability = variant.availability;
  if (variant.image !== undefined) ordered.image = variant.image;
  ordered.requires_shipping = variant.requires_shipping;
  return ordered;
}

/**
 * The record of a product the store sells without variants: one variant, its own, with
 * the product's id, name, price and availability (UCP wants at least one variant, and a
 * checkout takes the product's id then).
 */
export function singleVariantOf(
  product: Pick<Product, 'name' | 'price' | 'availability'>,
  id: string,
  extras: Partial<Pick<ProductVariant, 'sku' | 'gtin' | 'compare_at_price' | 'image'>> & {
    requires_shipping?: boolean;
  } = {},
): ProductVariant {
  return {
    id,
    title: product.name,
    options: [],
    ...extras,
    price: product.price,
    availability: product.availability,
    requires_shipping: extras.requires_shipping ?? true,
  };
}

/** A seed Product as a record: one variant, its own; the image, when known, its only image. */
export function recordOfSeedProduct(
  product: Product,
  id: string,
  extras: { imageUrl?: string; tags?: readonly string[] } = {},
): ProductRecord {
  return buildProductRecord({
    ...product,
    id,
    tags: [...(extras.tags ?? [])],
    images: extras.imageUrl === undefined ? [] : [{ url: extras.imageUrl }],
    options: [],
    variants: [singleVariantOf(product, id)],
  });
}
