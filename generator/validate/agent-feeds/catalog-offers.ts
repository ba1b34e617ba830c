/**
 * What the agent feeds are held to: every variant of the published catalog, with the
 * offer `record/variant-offers.ts` derives from it (the same rule the feeds were written
 * with) and whether it has an image. Read from the catalog document of the bundle under
 * check, so `check` on a directory or a live site compares what is actually published.
 * A catalog without variant records (an older bundle) yields nothing to compare.
 */

import type { Availability, ProductRecord } from '../../../record/product-record.js';
import { imageOf, offerOf, type VariantOffer } from '../../../record/variant-offers.js';
import { isRecord, stringField } from '../bundle-layout.js';
import { InternedStrings } from '../interned-strings.js';
import { catalogProductsOf } from '../listed-records.js';
import type { BundleFiles } from '../problem.js';

export interface CatalogVariant {
  slug: string;
  offer: VariantOffer;
  hasImage: boolean;
  /** False for a download: a feed must state no shipping for it. */
  requiresShipping: boolean;
  /** The product's shipping sentence, when the catalog states one (the feed's g:shipping must agree). */
  shipping?: string;
}

export interface CatalogOffers {
  byVariant: ReadonlyMap<string, CatalogVariant>;
  productIds: ReadonlySet<string>;
}

/** A published product with what the offers are read from (ids, link, currency, images, variants). */
export function isRecordLike(value: unknown): value is ProductRecord {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.slug === 'string' &&
    typeof value.url === 'string' &&
    typeof value.currency === 'string' &&
    Array.isArray(value.images) &&
    Array.isArray(value.variants) &&
    value.variants.every((variant) => isRecord(variant) && typeof variant.id === 'string')
  );
}

/**
 * The offers of a catalog's products, gathered product by product (the consistency check
 * adds them as it reads each product for its own reference, so a catalog kept on disk is
 * read once for both). The fields every variant repeats are interned.
 */
export class CatalogOffersBuilder {
  readonly #byVariant = new Map<string, CatalogVariant>();
  readonly #productIds = new Set<string>();
  readonly #strings: InternedStrings;

  constructor(strings = new InternedStrings()) {
    this.#strings = strings;
  }

  add(product: unknown): void {
    if (!isRecordLike(product)) return;
    this.#productIds.add(product.id);
    const shipping = stringField(product, 'shipping');
    for (const variant of product.variants) {
      const offer = offerOf(product, variant);
      offer.currency = this.#strings.of(offer.currency);
      offer.availability = this.#strings.of(offer.availability) as Availability;
      this.#byVariant.set(variant.id, {
        slug: product.slug,
        offer,
        hasImage: imageOf(product, variant) !== undefined,
        requiresShipping: variant.requires_shipping !== false,
        ...(shipping === undefined ? {} : { shipping: this.#strings.of(shipping) }),
      });
    }
  }

  /** Undefined for a catalog without variants: nothing to compare a feed's rows with. */
  finish(): CatalogOffers | undefined {
    return this.#byVariant.size === 0
      ? undefined
      : { byVariant: this.#byVariant, productIds: this.#productIds };
  }
}

/** The catalog's variants by id, or undefined when the bundle has no readable catalog with variants. */
export function readCatalogOffers(files: BundleFiles): CatalogOffers | undefined {
  const products = catalogProductsOf(files);
  if (products === undefined) return undefined;
  const offers = new CatalogOffersBuilder();
  for (const product of products) offers.add(product);
  return offers.finish();
}
