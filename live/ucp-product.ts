/**
 * Maps a canonical product record onto UCP's catalog product (release 2026-04-08). The
 * generator runs it once per product at build time and ships the result, so the handler
 * at the edge serves ready answers and never re-derives a price or an availability. Ids
 * are the store's, `handle` is the slug, `url` the catalog's url, prices are integers in
 * ISO 4217 minor units (`toMinorUnits`), and the record's `price_range` (present only when
 * variant prices differ) is spelled out as UCP requires it.
 */
import { toMinorUnits } from '../record/decimal-price.js';
import type { Availability, ProductImage, ProductRecord, ProductVariant } from '../record/product-record.js';
import type { UcpMedia, UcpPrice, UcpProduct, UcpVariant } from './ucp-types.js';

export function toUcpProduct(record: ProductRecord): UcpProduct {
  const price = (decimal: string): UcpPrice => toUcpPrice(decimal, record.currency, record.id);
  const range = record.price_range ?? { min: record.price, max: record.price };
  const options = record.options.filter((option) => option.values.length > 0);
  const media = record.images.map(toUcpMedia);
  return {
    id: record.id,
    handle: record.slug,
    title: record.name,
    description: { plain: record.description ?? '' },
    url: record.url,
    ...(record.category ? { categories: [{ value: record.category, taxonomy: 'merchant' as const }] } : {}),
    price_range: { min: price(range.min), max: price(range.max) },
    ...(media.length > 0 ? { media } : {}),
    ...(options.length > 0
      ? {
          options: options.map((option) => ({
            name: option.name,
            values: option.values.map((label) => ({ label })),
          })),
        }
      : {}),
    variants: record.variants.map((variant) => toUcpVariant(variant, price)),
    ...(record.tags.length > 0 ? { tags: record.tags } : {}),
    metadata: productMetadata(record),
  };
}

function toUcpVariant(variant: ProductVariant, price: (decimal: string) => UcpPrice): UcpVariant {
  return {
    id: variant.id,
    ...(variant.sku ? { sku: variant.sku } : {}),
    ...(variant.gtin ? { barcodes: [{ type: 'GTIN', value: variant.gtin }] } : {}),
    title: variant.title,
    description: { plain: variant.title },
    ...(variant.url ? { url: variant.url } : {}),
    price: price(variant.price),
    ...(variant.compare_at_price ? { list_price: price(variant.compare_at_price) } : {}),
    availability: toUcpAvailability(variant.availability),
    ...(variant.options.length > 0
      ? { options: variant.options.map((option) => ({ name: option.name, label: option.value })) }
      : {}),
    ...(variant.image ? { media: [{ type: 'image' as const, url: variant.image }] } : {}),
  };
}

/**
 * Each variant's price in minor units and whether it can be bought now, as `toUcpProduct`
 * gives them (the same two functions make both), without building the rest of the product:
 * all the search index reads of it.
 */
export function ucpOffersOf(record: ProductRecord): { amount: number; available: boolean }[] {
  return record.variants.map((variant) => ({
    amount: toUcpPrice(variant.price, record.currency, record.id).amount,
    available: toUcpAvailability(variant.availability).available,
  }));
}

/** `in_stock` → available; `out_of_stock` and `coming_soon` → not available, `status` saying which. */
export function toUcpAvailability(availability: Availability): { available: boolean; status: string } {
  return { available: availability === 'in_stock', status: availability };
}

function toUcpMedia(image: ProductImage): UcpMedia {
  return {
    type: 'image',
    url: image.url,
    ...(image.alt ? { alt_text: image.alt } : {}),
    ...(image.width && image.width >= 1 ? { width: image.width } : {}),
    ...(image.height && image.height >= 1 ? { height: image.height } : {}),
  };
}

function toUcpPrice(decimal: string, currency: string, productId: string): UcpPrice {
  const amount = toMinorUnits(decimal, currency);
  // The record's prices are validated decimals, so this is a broken record, not bad input.
  if (amount === undefined)
    throw new TypeError(`product ${productId}: price "${decimal}" is not a decimal amount`);
  return { amount, currency };
}

/** What the record says beyond UCP's fields: the seed's facts an agent may quote. */
function productMetadata(record: ProductRecord): Record<string, unknown> {
  const metadata: Record<string, unknown> = { purchase_url: record.purchase_url };
  if (record.brand) metadata.brand = record.brand;
  if (record.flavor) metadata.flavor = record.flavor;
  if (record.packaging) metadata.packaging = record.packaging;
  if (record.ingredients !== null) metadata.ingredients = record.ingredients;
  if (record.nutrition !== null) metadata.nutrition = record.nutrition;
  if (record.benefits !== null) metadata.benefits = record.benefits;
  if (record.certifications !== null) metadata.certifications = record.certifications;
  if (record.shipping) metadata.shipping = record.shipping;
  metadata.requires_shipping = record.requires_shipping;
  return metadata;
}
