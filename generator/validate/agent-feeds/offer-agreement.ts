/**
 * One rule for every feed: a row that names a variant must state the catalog's offer for
 * it, the same link, regular price, sale price (or none) and availability (in the feed's
 * own words, through that feed's availability table). Prices are compared as decimal
 * values, so "12.5" and "12.50" agree. The comparison is on the offers' numbers
 * (`CatalogOffers.differences`); a message, which quotes the catalog's own words, waits
 * for the end of the check, when the few products named are read again (`PendingMessage`).
 */
import { canonicalPrice } from '../../../record/decimal-price.js';
import type { Availability } from '../../../record/product-record.js';
import type { VariantOffer } from '../../../record/variant-offers.js';
import type { Message, ProductText } from '../pending-messages.js';
import { type CatalogOffers, DIFFERS, type OfferField } from './catalog-offers.js';
import type { FeedOfferRow } from './feed-offer-row.js';

export type Report = (path: string, message: Message) => void;
type AvailabilityTable = Readonly<Record<Availability, string>>;

const FIELDS = Object.keys(DIFFERS) as OfferField[];

/**
 * Compares the row with the catalog's offer of its variant, and returns that offer's number
 * (-1 when the catalog has no such variant, which is said).
 */
export function checkOfferAgrees(
  row: FeedOfferRow,
  catalog: CatalogOffers,
  availabilityTable: AvailabilityTable,
  path: string,
  report: Report,
): number {
  const offer = catalog.find(row.variantId);
  if (offer === -1) {
    report(path, `variant ${row.variantId} is not in the catalog`);
    return -1;
  }
  checkOfferAt(offer, row, catalog, availabilityTable, path, report);
  return offer;
}

/** Compares the row with the catalog's offer number `offer` (one the row's variant id found). */
export function checkOfferAt(
  offer: number,
  row: FeedOfferRow,
  catalog: CatalogOffers,
  availabilityTable: AvailabilityTable,
  path: string,
  report: Report,
): void {
  const found = catalog.differences(offer, row, availabilityTable);
  if (found === 0) return;
  const place = catalog.place(offer);
  for (const field of FIELDS) {
    if ((found & DIFFERS[field]) === 0) continue;
    report(path, {
      place,
      say: (text) => sayDifference(field, row, text.slug, offerIn(text, row.variantId), availabilityTable),
    });
  }
}

/** Compares the row with an offer at hand (a catalog product without variants), said at once. */
export function checkOfferAgainst(
  row: FeedOfferRow,
  expected: { slug: string; offer: VariantOffer },
  availabilityTable: AvailabilityTable,
  path: string,
  report: Report,
): void {
  const { offer, slug } = expected;
  const sale = row.salePrice === undefined ? undefined : canonicalPrice(row.salePrice);
  const differs: Record<OfferField, boolean> = {
    link: row.url !== undefined && row.url !== offer.url,
    price: canonicalPrice(row.price) !== canonicalPrice(offer.price) || row.currency !== offer.currency,
    sale: sale !== (offer.salePrice === undefined ? undefined : canonicalPrice(offer.salePrice)),
    availability: row.availability !== availabilityTable[offer.availability],
  };
  for (const field of FIELDS)
    if (differs[field]) report(path, sayDifference(field, row, slug, offer, availabilityTable));
}

/** The catalog's offer of a variant of the product read again (the last of its id, as the offers keep). */
function offerIn(text: ProductText, variantId: string): VariantOffer {
  const offer = text.offers.findLast((candidate) => candidate.variantId === variantId);
  if (offer === undefined)
    throw new Error(`variant ${variantId} was not found in ${text.slug} when read again`);
  return offer;
}

function sayDifference(
  field: OfferField,
  row: FeedOfferRow,
  slug: string,
  offer: VariantOffer,
  availabilityTable: AvailabilityTable,
): string {
  const where = `${slug} variant ${row.variantId}`;
  switch (field) {
    case 'link':
      return `${where}: link is ${row.url}, the catalog says ${offer.url}`;
    case 'price':
      return `${where}: price is ${row.price} ${row.currency}, the catalog says ${offer.price} ${offer.currency}`;
    case 'sale':
      return `${where}: sale price is ${row.salePrice ?? 'none'}, the catalog says ${offer.salePrice ?? 'none'}`;
    case 'availability':
      return `${where}: availability is ${row.availability}, the catalog's ${offer.availability} maps to ${availabilityTable[offer.availability]}`;
  }
}
