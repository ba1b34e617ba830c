/**
 * The offer of each variant as every feed states it: its id, the page that opens on it,
 * the regular price, the sale price when it is on sale, and its availability. Feeds follow
 * Google's convention (`price` is the regular price, `sale_price` what the customer pays
 * now), while the record keeps the store's (`price` is what it costs now, `compare_at_price`
 * the "was" price): this is the one place that turns one into the other, so every feed and
 * the gate that compares them with the catalog agree by construction.
 */
import type { Availability, ProductRecord, ProductVariant } from './product-record.js';

export interface VariantOffer {
  productId: string;
  variantId: string;
  url: string;
  /** The regular price: the "was" price when on sale, else the price. */
  price: string;
  /** What the customer pays now, present only when the variant is on sale. */
  salePrice?: string;
  currency: string;
  availability: Availability;
}

export function offerOf(record: ProductRecord, variant: ProductVariant): VariantOffer {
  return {
    productId: record.id,
    variantId: variant.id,
    url: variant.url ?? record.url,
    price: variant.compare_at_price ?? variant.price,
    ...(variant.compare_at_price === undefined ? {} : { salePrice: variant.price }),
    currency: record.currency,
    availability: variant.availability,
  };
}

/** Every variant's offer, in the record's variant order. */
export function offersOf(record: ProductRecord): VariantOffer[] {
  return record.variants.map((variant) => offerOf(record, variant));
}

/** The variant's image, else the product's first. */
export function imageOf(record: ProductRecord, variant: ProductVariant): string | undefined {
  return variant.image ?? record.images[0]?.url;
}
