/**
 * The catalog's offers gathered product by product (`CatalogOffers`): the consistency check
 * adds them as it reads each product for its own reference, so a catalog kept on disk is
 * read once for both, and the agent feeds' check is handed the same offers
 * (`offers-of-bundle.ts`). Only numbers and digests are kept; a product's currency and
 * shipping sentence, and a variant's availability, as numbers into tables of the values met.
 */
import { imageOf, offerOf } from '../../../record/variant-offers.js';
import { stringField } from '../bundle-layout.js';
import { DigestColumn, digestOf, NumberColumn, SortedDigests } from '../digests.js';
import { ValueTable } from '../value-table.js';
import {
  CatalogOffers,
  HAS_IMAGE,
  LINKS_PRODUCT,
  LINKS_VARIANT,
  type OfferColumns,
  type ProductTerms,
  REQUIRES_SHIPPING,
} from './catalog-offers.js';
import { PriceColumnBuilder } from './price-codes.js';
import { isRecordLike } from './record-like.js';

export class CatalogOffersBuilder {
  readonly #ids = new DigestColumn();
  readonly #places = new NumberColumn();
  readonly #otherLinks = new Map<number, bigint>();
  readonly #prices = new PriceColumnBuilder();
  readonly #sales = new PriceColumnBuilder();
  readonly #meta = new NumberColumn();
  readonly #availabilities = new ValueTable();
  readonly #productIds = new DigestColumn();
  readonly #productPlaces = new NumberColumn();
  /** Per catalog place, its currency and shipping sentence as a number of `#terms`. */
  readonly #termsOf = new NumberColumn();
  /** Per catalog place, its URL's digest. */
  readonly #urls = new DigestColumn();
  readonly #terms = new ValueTable();

  /** The catalog's next product; one the offers cannot be read from only takes its place. */
  add(product: unknown): void {
    const place = this.#termsOf.length;
    if (!isRecordLike(product)) {
      this.#termsOf.push(0);
      this.#urls.push(0n);
      return;
    }
    this.#urls.push(digestOf(product.url));
    const shipping = stringField(product, 'shipping');
    this.#termsOf.push(this.#terms.numberOf(JSON.stringify([product.currency, shipping ?? null])));
    this.#productIds.push(digestOf(product.id));
    this.#productPlaces.push(place);
    for (const variant of product.variants) {
      const offer = offerOf(product, variant);
      this.#ids.push(digestOf(variant.id));
      this.#places.push(place);
      this.#prices.push(offer.price);
      this.#sales.push(offer.salePrice);
      this.#meta.push(
        this.#linkShape(offer.url, product.url, variant.id) |
          this.#availabilities.numberOf(String(offer.availability)) |
          (imageOf(product, variant) === undefined ? 0 : HAS_IMAGE) |
          (variant.requires_shipping === false ? 0 : REQUIRES_SHIPPING),
      );
    }
  }

  /** The flag of the link's shape; a link of neither shape keeps its digest aside. */
  #linkShape(link: unknown, productUrl: string, variantId: string): number {
    if (link === productUrl) return LINKS_PRODUCT;
    if (link === `${productUrl}?variant=${variantId}`) return LINKS_VARIANT;
    // A malformed link (the schema check reports it) is one no row states.
    this.#otherLinks.set(this.#places.length - 1, typeof link === 'string' ? digestOf(link) : 0n);
    return 0;
  }

  /** Undefined for a catalog without variants: nothing to compare a feed's rows with. */
  finish(): CatalogOffers | undefined {
    if (this.#ids.length === 0) return undefined;
    const columns: OfferColumns = {
      places: this.#places.finish(),
      otherLinks: this.#otherLinks,
      prices: this.#prices.finish(),
      sales: this.#sales.finish(),
      meta: this.#meta.finish(),
    };
    const byId = new SortedDigests(this.#ids.finish(), Uint32Array.from(columns.places.keys()));
    adoptLastOffers(byId, columns);
    const terms = this.#terms.values.map((key): ProductTerms => {
      const [currency, shipping] = key === '' ? [''] : (JSON.parse(key) as [string, string | null]);
      return { currency: currency ?? '', ...(typeof shipping === 'string' ? { shipping } : {}) };
    });
    return new CatalogOffers(
      byId,
      columns,
      new SortedDigests(this.#productIds.finish(), this.#productPlaces.finish()),
      this.#termsOf.finish(),
      this.#urls.finish(),
      terms,
      this.#availabilities.values,
    );
  }
}

/**
 * A variant id the catalog repeats is one offer to the feeds, as a map by id made it: in
 * the first one's number (its order), with the last one's fields. The lookup finds the
 * first of a run of equal digests, and the runs keep the offers' order.
 */
function adoptLastOffers(byId: SortedDigests, columns: OfferColumns): void {
  const { digests, owners } = byId;
  for (let start = 0; start < digests.length; ) {
    let end = start;
    while (end + 1 < digests.length && digests[end + 1] === digests[start]) end += 1;
    if (end > start) {
      const first = owners[start] ?? 0;
      const last = owners[end] ?? 0;
      for (const key of ['places', 'meta'] as const) columns[key][first] = columns[key][last] ?? 0;
      const link = columns.otherLinks.get(last);
      if (link === undefined) columns.otherLinks.delete(first);
      else columns.otherLinks.set(first, link);
      columns.prices.copy(last, first);
      columns.sales.copy(last, first);
    }
    start = end + 1;
  }
}
