/**
 * One catalog product as one Google Merchant Center RSS item (`g:` namespace,
 * https://support.google.com/merchants/answer/7052112), with the one availability table
 * from the catalog's states to the feed's. Text is sanitised and cut to Google's limits
 * here; escaping is left to the XML builder.
 */
import type { ResolvedConfig } from '../config.js';
import { CatalogError } from '../errors.js';
import type { Availability, Product } from '../model.js';
import type { PlannedProduct } from '../plan.js';
import { feedShippingAttributes } from '../shipping/feed-shipping.js';
import { resolveShippingPolicy } from '../shipping/policy.js';
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
export function formatFeedPrice(product: Product): string {
  const match = PRICE.exec(product.price);
  if (match === null || !/^[A-Z]{3}$/.test(product.currency)) {
    throw new CatalogError(
      'PRODUCT_INVALID',
      `product "${product.slug}": price ${JSON.stringify(product.price)} ${product.currency} is not a decimal amount with an ISO 4217 currency`,
      { product: product.slug, field: 'price' },
    );
  }
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return `${match[1]}.${fraction} ${product.currency}`;
}

/** The item's g:id: the upstream id as the feed carries it. */
export function feedIdOf(planned: PlannedProduct): string {
  return clean(planned.sourceId);
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

export function buildFeedItem(
  planned: PlannedProduct,
  config: ResolvedConfig,
  shipping: Record<string, unknown> = buildFeedShipping(config),
): FeedItem {
  const product = planned.record;
  const where = (field: string) => ({ product: product.slug, field });
  const title = truncateText(clean(product.name).replace(/\s+/g, ' '), MAX_TITLE_LENGTH);
  if (title === '') {
    throw new CatalogError('PRODUCT_INVALID', `product "${product.slug}": name is empty`, where('name'));
  }
  const id = feedIdOf(planned);
  if (!isUsableFeedId(id)) {
    throw new CatalogError(
      'PRODUCT_INVALID',
      `product "${product.slug}": id ${JSON.stringify(id)} must be 1 to ${MAX_ID_LENGTH} characters`,
      where('id'),
    );
  }
  const item: FeedItem = {
    'g:id': id,
    'g:title': title,
    'g:description': describeProduct(product),
    'g:link': requireAbsoluteUrl(product.url, where('url')),
  };
  if (planned.imageUrl !== undefined)
    item['g:image_link'] = requireAbsoluteUrl(planned.imageUrl, where('image'));
  item['g:price'] = formatFeedPrice(product);
  item['g:availability'] = FEED_AVAILABILITY[product.availability];
  item['g:brand'] = clean(config.merchant.brand);
  item['g:condition'] = config.feed.condition;
  if (config.feed.google_product_category !== undefined) {
    item['g:google_product_category'] = clean(config.feed.google_product_category);
  }
  // No GTIN or MPN is known for these products; Google asks for identifier_exists "no" then.
  item['g:identifier_exists'] = 'no';
  // A product that needs no shipping (an eBook) has no shipping line, as it has no shipping sentence.
  return product.requires_shipping ? Object.assign(item, shipping) : item;
}
