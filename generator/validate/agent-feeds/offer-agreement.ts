/**
 * One rule for every feed: a row that names a variant must state the catalog's offer for
 * it, the same link, regular price, sale price (or none) and availability (in the feed's
 * own words, through that feed's availability table). Prices are compared as decimal
 * values, so "12.5" and "12.50" agree.
 */
import { canonicalPrice } from '../../../record/decimal-price.js';
import type { Availability } from '../../../record/product-record.js';
import type { CatalogOffers } from './catalog-offers.js';

export type Report = (path: string, message: string) => void;

/** A feed row reduced to its offer, prices as decimal text. */
export interface FeedOfferRow {
  variantId: string;
  /** The page the document links for the variant; a document that links none (the knowledge base's table) leaves it out. */
  url?: string;
  price: string;
  salePrice?: string;
  currency: string;
  /** In the feed's own vocabulary; compared through the feed's availability table. */
  availability: string;
}

export function checkOfferAgrees(
  row: FeedOfferRow,
  catalog: CatalogOffers,
  availabilityTable: Readonly<Record<Availability, string>>,
  path: string,
  report: Report,
): void {
  const expected = catalog.byVariant.get(row.variantId);
  if (expected === undefined) {
    report(path, `variant ${row.variantId} is not in the catalog`);
    return;
  }
  const { offer, slug } = expected;
  const where = `${slug} variant ${row.variantId}`;
  if (row.url !== undefined && row.url !== offer.url)
    report(path, `${where}: link is ${row.url}, the catalog says ${offer.url}`);
  if (canonicalPrice(row.price) !== canonicalPrice(offer.price) || row.currency !== offer.currency) {
    report(
      path,
      `${where}: price is ${row.price} ${row.currency}, the catalog says ${offer.price} ${offer.currency}`,
    );
  }
  const sale = row.salePrice === undefined ? undefined : canonicalPrice(row.salePrice);
  const expectedSale = offer.salePrice === undefined ? undefined : canonicalPrice(offer.salePrice);
  if (sale !== expectedSale) {
    report(
      path,
      `${where}: sale price is ${row.salePrice ?? 'none'}, the catalog says ${offer.salePrice ?? 'none'}`,
    );
  }
  const availability = availabilityTable[offer.availability];
  if (row.availability !== availability) {
    report(
      path,
      `${where}: availability is ${row.availability}, the catalog's ${offer.availability} maps to ${availability}`,
    );
  }
}
