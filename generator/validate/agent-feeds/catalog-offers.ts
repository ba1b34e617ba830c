/**
 * What the agent feeds are held to: every variant of the published catalog, with the
 * offer `record/variant-offers.ts` derives from it (the same rule the feeds were written
 * with) and whether it has an image. Read from the catalog document of the bundle under
 * check, so `check` on a directory or a live site compares what is actually published.
 * A catalog without variant records (an older bundle) yields nothing to compare.
 */
import type { ProductRecord } from '../../../record/product-record.js';
import { imageOf, offerOf, type VariantOffer } from '../../../record/variant-offers.js';
import { isRecord, locateDocuments, readJson } from '../bundle-layout.js';
import type { BundleFiles } from '../problem.js';

export interface CatalogVariant {
  slug: string;
  offer: VariantOffer;
  hasImage: boolean;
  /** False for a download: a feed must state no shipping for it. */
  requiresShipping: boolean;
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

/** The catalog's variants by id, or undefined when the bundle has no readable catalog with variants. */
export function readCatalogOffers(files: BundleFiles): CatalogOffers | undefined {
  const { catalogFile } = locateDocuments(files);
  const catalog = catalogFile === undefined ? undefined : readJson(files, catalogFile);
  const products = isRecord(catalog) && Array.isArray(catalog.products) ? catalog.products : undefined;
  if (products === undefined) return undefined;
  const byVariant = new Map<string, CatalogVariant>();
  const productIds = new Set<string>();
  for (const product of products) {
    if (!isRecordLike(product)) continue;
    productIds.add(product.id);
    for (const variant of product.variants) {
      byVariant.set(variant.id, {
        slug: product.slug,
        offer: offerOf(product, variant),
        hasImage: imageOf(product, variant) !== undefined,
        requiresShipping: variant.requires_shipping !== false,
      });
    }
  }
  return byVariant.size === 0 ? undefined : { byVariant, productIds };
}
