/**
 * One set of catalog offers per bundle under check. The build's gate runs the consistency
 * check before the agent feeds' check (`validate/index.ts`), and the consistency check
 * reads every catalog product for its own reference, the offers among it: it leaves them
 * here, and the agent feeds' check takes them, so the gate never holds two copies. A check
 * run on its own (or before the consistency check) reads them from the catalog itself.
 * Keyed weakly by the bundle's files, so they go with the bundle.
 */
import { catalogProductsOf } from '../listed-records.js';
import type { BundleFiles } from '../problem.js';
import type { CatalogOffers } from './catalog-offers.js';
import { CatalogOffersBuilder } from './catalog-offers-builder.js';

const offersByBundle = new WeakMap<BundleFiles, { offers: CatalogOffers | undefined }>();

/** Keeps the offers read from this bundle's catalog for the next check that needs them. */
export function keepCatalogOffers(files: BundleFiles, offers: CatalogOffers | undefined): void {
  offersByBundle.set(files, { offers });
}

/** The offers of the bundle's catalog, those kept if any (let go once taken), else read now. */
export function takeCatalogOffers(files: BundleFiles): CatalogOffers | undefined {
  const kept = offersByBundle.get(files);
  if (kept === undefined) return readCatalogOffers(files);
  offersByBundle.delete(files);
  return kept.offers;
}

/** The catalog's products (walked anew each time), or undefined when the bundle has no readable catalog. */
export function readCatalogProducts(files: BundleFiles): Iterable<unknown> | undefined {
  return catalogProductsOf(files);
}

/** The catalog's offers, or undefined when the bundle has no readable catalog with variants. */
export function readCatalogOffers(files: BundleFiles): CatalogOffers | undefined {
  const products = readCatalogProducts(files);
  if (products === undefined) return undefined;
  const offers = new CatalogOffersBuilder();
  for (const product of products) offers.add(product);
  return offers.finish();
}
