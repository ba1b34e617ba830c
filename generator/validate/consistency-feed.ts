/**
 * The feed's half of the cross-document consistency check: every item of feed.xml must
 * be a catalog variant (by `g:id`) with the catalog's link, regular price, sale price and
 * availability, by the one rule every feed is held to (`agent-feeds/offer-agreement.ts`),
 * and the catalog's shipping terms, or no `g:shipping` at all for a variant that ships
 * nothing. The feed may leave a variant out (one that breaks a Google item rule,
 * `emit/feed-rules.ts`), so, unlike the other documents, it need not list every catalog
 * variant. A catalog written before products had variants is compared product by
 * product, by link.
 */
import { FEED_AVAILABILITY } from '../emit/feed-item.js';
import type { CatalogOffers, CatalogVariant } from './agent-feeds/catalog-offers.js';
import { checkOfferAgrees, type FeedOfferRow } from './agent-feeds/offer-agreement.js';
import type { ReferenceProduct } from './consistency-reference.js';
import { type FeedFacts, streamFeedItems } from './consistency-sources.js';
import type { BundleFiles } from './problem.js';

type FeedItemFacts = FeedFacts['items'][number];
type Add = (path: string, message: string) => void;

/** `12.00 USD` as amount and currency. */
function splitMoney(text: string): [string, string] {
  const [amount = '', currency = ''] = text.trim().split(' ');
  return [amount, currency];
}

function rowOf(item: FeedItemFacts): FeedOfferRow {
  const [price, currency] = splitMoney(item.price);
  return {
    variantId: item.id,
    url: item.link,
    price,
    ...(item.salePrice === '' ? {} : { salePrice: splitMoney(item.salePrice)[0] }),
    currency,
    availability: item.availability,
  };
}

/** A product without variants as the one offer the feed's item stands for. */
function legacyOffers(item: FeedItemFacts, product: ReferenceProduct): CatalogOffers {
  const offer = {
    productId: item.id,
    variantId: item.id,
    url: item.link,
    price: product.price,
    currency: product.currency,
    availability: product.availability,
  };
  const variant: CatalogVariant = {
    slug: product.slug,
    offer,
    hasImage: true,
    requiresShipping: true,
    ...(product.shipping === undefined ? {} : { shipping: product.shipping }),
  };
  return { byVariant: new Map([[item.id, variant]]), productIds: new Set() };
}

export function checkFeedItems(
  files: BundleFiles,
  reference: { offers: CatalogOffers | undefined; byUrl: ReadonlyMap<string, ReferenceProduct> },
  add: Add,
): void {
  const feed = streamFeedItems(files);
  if (feed === undefined) return;
  for (const item of feed.items) {
    const legacy = reference.byUrl.get(item.link);
    const known = reference.offers?.byVariant.has(item.id) === true;
    const offers =
      known || legacy === undefined || legacy.hasVariants ? reference.offers : legacyOffers(item, legacy);
    if (offers === undefined) {
      add(feed.path, `variant ${item.id} (${item.link}) is not in the catalog`);
      continue;
    }
    checkOfferAgrees(rowOf(item), offers, FEED_AVAILABILITY, feed.path, add);
    const expected = offers.byVariant.get(item.id);
    if (expected !== undefined) checkShippingAgrees(feed.path, item.shipping, expected, add);
  }
}

/** The catalog's shipping sentence must begin with the terms the feed's g:shipping states. */
function checkShippingAgrees(
  path: string,
  shipping: FeedItemFacts['shipping'],
  expected: CatalogVariant,
  add: Add,
): void {
  if (shipping === undefined) return;
  const subject = `${expected.slug} variant ${expected.offer.variantId}`;
  if (!expected.requiresShipping) {
    add(path, `${subject}: ships nothing (requires_shipping false), yet the item has g:shipping`);
    return;
  }
  if ('problem' in shipping) {
    add(path, `${subject}: ${shipping.problem}`);
    return;
  }
  const sentence = expected.shipping;
  if (!(sentence ?? '').startsWith(shipping.terms)) {
    add(
      path,
      `${subject}: g:shipping says "${shipping.terms}", the catalog's shipping says "${sentence ?? '(nothing)'}"`,
    );
  }
}
