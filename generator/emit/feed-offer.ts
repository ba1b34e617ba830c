/**
 * What one feed item is about: a product's variant. A product the store sells without
 * variants has one, its own, so the feed has one item per purchasable thing either way
 * (Google: "Submit each variant as a separate product", answer 6324507).
 */
import { imageOf } from '../../record/variant-offers.js';
import type { ProductVariant } from '../model.js';
import type { PlannedProduct } from '../plan.js';

export interface FeedOffer {
  planned: PlannedProduct;
  variant: ProductVariant;
}

/** The product's offers, one per variant, featured variant first. */
export function feedOffersOf(planned: PlannedProduct): FeedOffer[] {
  return planned.record.variants.map((variant) => ({ planned, variant }));
}

/** The item's main image: the variant's own, else the product's first (`imageOf`, as every feed). */
export function feedImageOf(offer: FeedOffer): string | undefined {
  return imageOf(offer.planned.record, offer.variant);
}
