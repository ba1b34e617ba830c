/**
 * What the feeds are held to: every variant of the published catalog, with the offer
 * `record/variant-offers.ts` derives from it (the rule the feeds were written with), kept
 * as numbers, not text, in typed arrays by the offer's number (the catalog's variants in
 * order): the variant id's 8-byte digest (sorted, looked up by binary search), the place of
 * its product in the catalog, its regular and sale price as exact codes (`price-codes.ts`),
 * its availability as a number into the values met, whether it has an image and needs
 * shipping, and the shape of its link (its product's URL, or that URL with `?variant=` and
 * its id, as every variant of a Shopify store links; any other link's digest is kept
 * aside); per product its id's and URL's digests, and its currency and shipping sentence
 * as one number. What a message quotes (a slug, the catalog's price text, a link)
 * is read again from the catalog for the few rows that disagree (`pending-messages.ts`).
 *
 * Binary search, not an open-addressing table: at 60,000 variants a lookup cost a quarter
 * of the digest it looks up, and the table at half load held twice the bytes
 * (BENCHMARKS.md, "the variants' offers as digests").
 *
 * Two different ids, links or product ids of one catalog share an 8-byte digest with a
 * chance of about n²/2⁶⁵ (one in ten million for 1,000,000 products' 2,700,000 variants),
 * which is negligible, as for the products by URL (`digests.ts`). The same id twice is a
 * catalog fault the consistency check names; its offers are the last one's, as a map by id
 * had them, in the first one's order.
 */
import type { Availability } from '../../../record/product-record.js';
import { digestOf, type SortedDigests } from '../digests.js';
import type { FeedOfferRow } from './feed-offer-row.js';
import type { PriceColumn } from './price-codes.js';

/** A meta entry: the availability's number in its low bits, then these flags. */
export const HAS_IMAGE = 1 << 29;
export const REQUIRES_SHIPPING = 1 << 30;
/** The offer's link is its product's URL. */
export const LINKS_PRODUCT = 1 << 28;
/** The offer's link is its product's URL with `?variant=` and the variant's id, as a Shopify store's are. */
export const LINKS_VARIANT = 1 << 27;
const AVAILABILITY_BITS = LINKS_VARIANT - 1;

/** What a row can disagree with the catalog on, a bit each, in the order the messages come. */
export const DIFFERS = { link: 1, price: 2, sale: 4, availability: 8 } as const;
export type OfferField = keyof typeof DIFFERS;

export interface OfferColumns {
  /** The place of the offer's product in the catalog's list of products. */
  places: Uint32Array;
  /** The digest of the links neither of the shapes the meta flags name, by offer. */
  otherLinks: Map<number, bigint>;
  prices: PriceColumn;
  sales: PriceColumn;
  meta: Uint32Array;
}

/** A product's currency and shipping sentence, which all its variants share. */
export interface ProductTerms {
  currency: string;
  shipping?: string;
}

/** Every catalog variant's offer, by its number; undefined where a catalog has no variants. */
export class CatalogOffers {
  constructor(
    private readonly byId: SortedDigests,
    private readonly columns: OfferColumns,
    private readonly byProduct: SortedDigests,
    /** Per catalog place, the number of its terms in `terms` (0 for a record the offers pass by). */
    private readonly termsOf: Uint32Array,
    /** Per catalog place, the digest of the product's URL (0 for a record the offers pass by). */
    private readonly urls: BigUint64Array,
    private readonly terms: readonly ProductTerms[],
    private readonly availabilities: readonly string[],
  ) {}

  /** How many offers (the size of a set of seen offers). */
  get size(): number {
    return this.columns.places.length;
  }

  /** How many places the catalog's list has (the size of a set of seen products). */
  get places(): number {
    return this.termsOf.length;
  }

  /** The bytes of the typed arrays, not counting the few strings the tables and the links aside keep. */
  get byteLength(): number {
    const { places, prices, sales, meta } = this.columns;
    return [
      this.byId.digests,
      this.byId.owners,
      places,
      this.urls,
      prices.codes,
      sales.codes,
      meta,
      this.byProduct.digests,
      this.byProduct.owners,
      this.termsOf,
    ].reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** The offer of the variant with this id, or -1. */
  find(variantId: string): number {
    const at = this.byId.find(digestOf(variantId));
    return at === -1 ? -1 : (this.byId.owners[at] ?? -1);
  }

  /** The place in the catalog of the product the offer is read from again. */
  place(offer: number): number {
    return this.columns.places[offer] ?? 0;
  }

  /** The fields (`DIFFERS` bits) on which the row does not state the offer; 0 when it agrees. */
  differences(
    offer: number,
    row: FeedOfferRow,
    availabilityTable: Readonly<Record<Availability, string>>,
  ): number {
    const { prices, sales, meta } = this.columns;
    let found = 0;
    if (row.url !== undefined && !this.#linkIs(offer, row.url, row.variantId)) found |= DIFFERS.link;
    if (!prices.same(offer, row.price) || row.currency !== this.#terms(offer).currency)
      found |= DIFFERS.price;
    if (!sales.same(offer, row.salePrice)) found |= DIFFERS.sale;
    const availability = this.availabilities[(meta[offer] ?? 0) & AVAILABILITY_BITS] ?? '';
    if (row.availability !== availabilityTable[availability as Availability]) found |= DIFFERS.availability;
    return found;
  }

  hasImage(offer: number): boolean {
    return ((this.columns.meta[offer] ?? 0) & HAS_IMAGE) !== 0;
  }

  /** False for a download: a feed must state no shipping for it. */
  requiresShipping(offer: number): boolean {
    return ((this.columns.meta[offer] ?? 0) & REQUIRES_SHIPPING) !== 0;
  }

  /** The product's shipping sentence, when the catalog states one. */
  shipping(offer: number): string | undefined {
    return this.#terms(offer).shipping;
  }

  /**
   * The offers with an image that `seen` (by offer number) does not hold, each id once, in
   * the order the catalog first gives its id, with the digest of the id.
   */
  unseenWithImage(seen: Uint8Array): { offer: number; id: bigint }[] {
    return firstOfEach(this.byId, (offer) => this.hasImage(offer) && seen[offer] !== 1).map(
      ([offer, id]) => ({ offer, id }),
    );
  }

  /** The first place of the catalog product with this id, or -1. */
  findProduct(id: string): number {
    const at = this.byProduct.find(digestOf(id));
    return at === -1 ? -1 : (this.byProduct.owners[at] ?? -1);
  }

  /** The places (the first of each product id) that `seen` (by place) does not hold, in catalog order. */
  unseenProducts(seen: Uint8Array): number[] {
    return firstOfEach(this.byProduct, (place) => seen[place] !== 1).map(([place]) => place);
  }

  /** Whether `url` is the offer's link (`variantId` is the offer's variant id). */
  #linkIs(offer: number, url: string, variantId: string): boolean {
    const meta = this.columns.meta[offer] ?? 0;
    const productUrl = this.urls[this.place(offer)];
    if ((meta & LINKS_PRODUCT) !== 0) return this.#pageDigest(url) === productUrl;
    if ((meta & LINKS_VARIANT) === 0) return digestOf(url) === this.columns.otherLinks.get(offer);
    const query = `?variant=${variantId}`;
    return url.endsWith(query) && this.#pageDigest(url.slice(0, -query.length)) === productUrl;
  }

  #lastPage = { url: '', digest: digestOf('') };

  /** A product page's digest: the feeds list a product's variants one after the other, so the last one is kept. */
  #pageDigest(url: string): bigint {
    if (url !== this.#lastPage.url) this.#lastPage = { url, digest: digestOf(url) };
    return this.#lastPage.digest;
  }

  #terms(offer: number): ProductTerms {
    return this.terms[this.termsOf[this.place(offer)] ?? 0] ?? { currency: '' };
  }
}

/** The first owner of each digest that `keep` keeps, with its digest, in the owners' order. */
function firstOfEach(
  sorted: SortedDigests,
  keep: (owner: number) => boolean,
): [owner: number, digest: bigint][] {
  const found: [number, bigint][] = [];
  for (const [at, digest] of sorted.digests.entries()) {
    const owner = sorted.owners[at] ?? 0;
    if ((at === 0 || sorted.digests[at - 1] !== digest) && keep(owner)) found.push([owner, digest]);
  }
  return found.sort((a, b) => a[0] - b[0]);
}
