/**
 * Assembles a canonical product record: the summary fields come from the variants by the
 * one set of rules (`summarise-variants.ts`), and the keys are laid out in one fixed
 * order (the seed's fields in the seed's order, then the extensions), so the published
 * JSON never depends on the order an adapter or a content file happened to use.
 */
import type { Product, ProductRecord, ProductVariant } from './product-record.js';
import { summariseVariants } from './summarise-variants.js';

/** What an adapter knows; `price`, `availability`, `price_range`, `compare_at_price` and `requires_shipping` are derived. */
export type RecordInput = Omit<
  ProductRecord,
  'price' | 'availability' | 'price_range' | 'compare_at_price' | 'requires_shipping'
>;

export function buildProductRecord(input: RecordInput): ProductRecord {
  return orderProductRecord({ ...input, ...summariseVariants(input.variants) });
}

/** The same record with its keys in the canonical order and no undefined values. */
export function orderProductRecord(record: ProductRecord): ProductRecord {
  const ordered: ProductRecord = {
    name: record.name,
    ...optional('flavor', record.flavor),
    slug: record.slug,
    url: record.url,
    description: record.description,
    ...optional('packaging', record.packaging),
    ingredients: record.ingredients,
    nutrition: record.nutrition,
    benefits: record.benefits,
    certifications: record.certifications,
    price: record.price,
    currency: record.currency,
    availability: record.availability,
    ...optional('shipping', record.shipping),
    purchase_url: record.purchase_url,
    id: record.id,
    ...optional('brand', record.brand),
    ...optional('category', record.category),
    tags: record.tags,
    images: record.images,
    options: record.options,
    variants: record.variants.map(orderVariant),
    ...optional('price_range', record.price_range),
    ...optional('compare_at_price', record.compare_at_price),
    requires_shipping: record.requires_shipping,
  };
  return ordered;
}

function orderVariant(variant: ProductVariant): ProductVariant {
  return {
    id: variant.id,
    title: variant.title,
    ...optional('url', variant.url),
    options: variant.options,
    ...optional('sku', variant.sku),
    ...optional('gtin', variant.gtin),
    price: variant.price,
    ...optional('compare_at_price', variant.compare_at_price),
    availability: variant.availability,
    ...optional('image', variant.image),
    requires_shipping: variant.requires_shipping,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
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
