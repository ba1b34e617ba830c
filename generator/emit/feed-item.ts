/**
 * One catalog variant as one Google Merchant Center RSS item (`g:` namespace,
 * https://support.google.com/merchants/answer/7052112): its id, the product's id as
 * `g:item_group_id` when the product has a choice of variants, its price and sale price,
 * link, images and availability, and the one availability table from the catalog's
 * states to the feed's. Text is sanitised and cut to Google's limits
 * here; escaping is left to the XML builder.
 */
import { offerOf, type VariantOffer } from '../../record/variant-offers.js';
import type { ResolvedConfig } from '../config.js';
import { CatalogError } from '../errors.js';
import type { Availability, Product } from '../model.js';
import { feedShippingAttributes } from '../shipping/feed-shipping.js';
import { resolveShippingPolicy } from '../shipping/policy.js';
import { identityAttributes, imageAttributes, optionAttributes } from './feed-attributes.js';
import type { FeedOffer } from './feed-offer.js';
import { requireAbsoluteUrl, sanitizeXmlText, truncateText } from './xml-text.js';

export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0';

/** Google's limits: title 150 characters, description 5,000 characters (longer text is cut). */
export const MAX_TITLE_LENGTH = 150;
export const MAX_DESCRIPTION_LENGTH = 5000;
/** Google: g:id "Max 50 characters". */
export const MAX_ID_LENGTH = 50;

/** Every `g:availability` value Google accepts. */
export const FEED_AVAILABILITIES = ['in_stock', 'out_of_stock', 'preorder', 'backorder'] as const;
export type FeedAvailability = (typeof FEED_AVAILABILITIES)[number];

/**
 * The availability table. `coming_soon` has no exact twin: Google's `preorder` means the
 * product can be ordered now and REQUIRES `g:availability_date` (answer 6324470: "Required
 * if you set the availability attribute to preorder or backorder"); the catalog has
 * neither an order path nor a date for it, so it is published as `out_of_stock`.
 */
export const FEED_AVAILABILITY: Readonly<Record<Availability, FeedAvailability>> = {
  in_stock: 'in_stock',
  out_of_stock: 'out_of_stock',
  coming_soon: 'out_of_stock',
};

const PRICE = /^(\d+)(?:\.(\d+))?$/;

/** Google price form `12.00 USD`: the decimal amount as the catalog gives it, at least two decimals. */
export function formatFeedPrice(
  amount: string,
  currency: string,
  where: { product: string; field: string },
): string {
  const match = PRICE.exec(amount);
  if (match === null || !/^[A-Z]{3}$/.test(currency)) {
    throw new CatalogError(
      'PRODUCT_INVALID',
      `product "${where.product}": ${where.field} ${JSON.stringify(amount)} ${currency} is not a decimal amount with an ISO 4217 currency`,
      where,
    );
  }
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return `${match[1]}.${fraction} ${currency}`;
}

/** The item's g:id: the store's variant id (the product's id for a product without variants). */
export function feedIdOf(offer: FeedOffer): string {
  return clean(offer.variant.id);
}

/** Google: g:id is required, "Max 50 characters". */
export function isUsableFeedId(id: string): boolean {
  return id !== '' && id.length <= MAX_ID_LENGTH;
}

function clean(text: string): string {
  return sanitizeXmlText(text).trim();
}

/** The description, or, when the catalog has none, a sentence built from name, flavor and packaging. */
function describeProduct(product: Product): string {
  const own = product.description === null ? '' : clean(product.description);
  if (own !== '') return truncateText(own, MAX_DESCRIPTION_LENGTH);
  const facts = [product.name, product.flavor, product.packaging].filter(
    (part): part is string => typeof part === 'string' && clean(part) !== '',
  );
  return truncateText(clean(facts.join(' — ')), MAX_DESCRIPTION_LENGTH);
}

export type FeedItem = Record<string, unknown>;

/** The feed's shipping attributes, the same for every item; none without a shipping policy. */
export function buildFeedShipping(config: ResolvedConfig): Record<string, unknown> {
  // Without a shipping policy, Merchant Center's account settings apply.
  const policy = resolveShippingPolicy(config);
  return policy === undefined ? {} : feedShippingAttributes(policy);
}

/** A variant of a product with a choice is titled by both ("Trail Hoodie – XS / Red"), as Google asks of variants. */
function titleOf(offer: FeedOffer): string {
  const { record } = offer.planned;
  const variantTitle = clean(offer.variant.title);
  const name = clean(record.name);
  const title =
    record.variants.length > 1 && variantTitle !== '' && variantTitle !== name
      ? `${name} – ${variantTitle}`
      : name;
  return truncateText(title.replace(/\s+/g, ' '), MAX_TITLE_LENGTH);
}

/**
 * g:price is the regular price and g:sale_price what the shopper pays while on sale, as
 * `offerOf` (record/variant-offers.ts) states every feed's offer.
 */
function priceAttributes(offer: VariantOffer, where: (field: string) => { product: string; field: string }) {
  const price = formatFeedPrice(offer.price, offer.currency, where('price'));
  if (offer.salePrice === undefined) return { 'g:price': price };
  return {
    'g:price': price,
    'g:sale_price': formatFeedPrice(offer.salePrice, offer.currency, where('price')),
  };
}

export function buildFeedItem(
  offer: FeedOffer,
  config: ResolvedConfig,
  shipping: Record<string, unknown> = buildFeedShipping(config),
): FeedItem {
  const product = offer.planned.record;
  const { variant } = offer;
  const where = (field: string) => ({ product: product.slug, field });
  const title = titleOf(offer);
  if (title === '') {
    throw new CatalogError('PRODUCT_INVALID', `product "${product.slug}": name is empty`, where('name'));
  }
  const id = feedIdOf(offer);
  if (!isUsableFeedId(id)) {
    throw new CatalogError(
      'PRODUCT_INVALID',
      `product "${product.slug}": variant id ${JSON.stringify(id)} must be 1 to ${MAX_ID_LENGTH} characters`,
      where('variants.id'),
    );
  }
  const item: FeedItem = { 'g:id': id };
  if (product.variants.length > 1) item['g:item_group_id'] = clean(product.id);
  item['g:title'] = title;
  item['g:description'] = describeProduct(product);
  const sold = offerOf(product, variant);
  item['g:link'] = requireAbsoluteUrl(sold.url, where(variant.url === undefined ? 'url' : 'variants.url'));
  Object.assign(item, imageAttributes(offer, where), priceAttributes(sold, where));
  item['g:availability'] = FEED_AVAILABILITY[sold.availability];
  Object.assign(item, identityAttributes(offer, config));
  item['g:condition'] = config.feed.condition;
  if (config.feed.google_product_category !== undefined) {
    item['g:google_product_category'] = clean(config.feed.google_product_category);
  }
  Object.assign(item, optionAttributes(variant));
  // A product that ships nothing (a download) carries no shipping terms at all.
  return variant.requires_shipping ? Object.assign(item, shipping) : item;
}
