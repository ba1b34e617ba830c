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
import type { CatalogOffers } from './agent-feeds/catalog-offers.js';
import type { FeedOfferRow } from './agent-feeds/feed-offer-row.js';
import { checkOfferAgainst, checkOfferAt, type Report } from './agent-feeds/offer-agreement.js';
import type { CatalogProducts, LegacyProduct } from './catalog-products.js';
import { type FeedFacts, streamFeedItems } from './consistency-sources.js';
import type { BundleFiles } from './problem.js';

type FeedItemFacts = FeedFacts['items'][number];

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

/** A product without variants, held to the one offer the feed's item stands for, said at once. */
function checkLegacyItem(
  path: string,
  item: FeedItemFacts,
  products: CatalogProducts,
  product: number,
  legacy: LegacyProduct,
  add: Report,
): void {
  const offer = {
    productId: item.id,
    variantId: item.id,
    url: item.link,
    price: legacy.price,
    currency: products.currency(product),
    availability: products.availability(product),
  };
  checkOfferAgainst(rowOf(item), { slug: legacy.slug, offer }, FEED_AVAILABILITY, path, add);
  const fault = shippingFault(item.shipping, true, products.shipping(product));
  if (fault !== undefined) add(path, fault(`${legacy.slug} variant ${item.id}`));
}

export function checkFeedItems(
  files: BundleFiles,
  reference: { offers: CatalogOffers | undefined; products: CatalogProducts },
  add: Report,
): void {
  const feed = streamFeedItems(files);
  if (feed === undefined) return;
  const { offers, products } = reference;
  for (const item of feed.items) {
    const offer = offers === undefined ? -1 : offers.find(item.id);
    const product = offer !== -1 ? undefined : products.find(item.link);
    const legacy = product === undefined ? undefined : products.legacy(product);
    if (product !== undefined && legacy !== undefined) {
      checkLegacyItem(feed.path, item, products, product, legacy, add);
      continue;
    }
    if (offers === undefined) {
      add(feed.path, `variant ${item.id} (${item.link}) is not in the catalog`);
      continue;
    }
    if (offer === -1) {
      add(feed.path, `variant ${item.id} is not in the catalog`);
      continue;
    }
    checkOfferAt(offer, rowOf(item), offers, FEED_AVAILABILITY, feed.path, add);
    const fault = shippingFault(item.shipping, offers.requiresShipping(offer), offers.shipping(offer));
    if (fault !== undefined)
      add(feed.path, { place: offers.place(offer), say: ({ slug }) => fault(`${slug} variant ${item.id}`) });
  }
}

/**
 * What is wrong with the item's g:shipping, worded once its subject (the catalog's slug and
 * the variant) is known; undefined when nothing is: the catalog's shipping sentence must
 * begin with the terms the item states, and a variant that ships nothing states none.
 */
function shippingFault(
  shipping: FeedItemFacts['shipping'],
  requiresShipping: boolean,
  sentence: string | undefined,
): ((subject: string) => string) | undefined {
  if (shipping === undefined) return undefined;
  if (!requiresShipping)
    return (subject) => `${subject}: ships nothing (requires_shipping false), yet the item has g:shipping`;
  if ('problem' in shipping) return (subject) => `${subject}: ${shipping.problem}`;
  if ((sentence ?? '').startsWith(shipping.terms)) return undefined;
  return (subject) =>
    `${subject}: g:shipping says "${shipping.terms}", the catalog's shipping says "${sentence ?? '(nothing)'}"`;
}
