/**
 * Google Merchant Center's item rules that a product can break, in one table used three
 * ways: the build leaves such a product out of the feed (never out of the catalog) with
 * a warning naming the product and the rule; `check` verifies every item of a feed.xml
 * against the same rules; the docs print the table. Sources: the product data
 * specification (https://support.google.com/merchants/answer/7052112) and the attribute
 * pages it links: image_link 6324350 ("Required"), price 6324371 (a price of zero is
 * disapproved), id 6324405 ("Max 50 characters"), identifier_exists 6324478 ("Use for products that don't have a GTIN, MPN,
 * or brand"), shipping 6324484, free_shipping_threshold 14768922.
 */
import { compareDecimal } from '../../record/decimal-price.js';
import type { PlannedProduct } from '../plan.js';
import { feedIdOf, isUsableFeedId, MAX_ID_LENGTH } from './feed-item.js';
import { type FeedOffer, feedImageOf, feedOffersOf } from './feed-offer.js';

export type FeedRule = 'image_link' | 'price' | 'id';

/** A product (or one variant of it) left out of the feed, and the rule it breaks. */
export interface FeedExclusion {
  product: string;
  /** The variant left out, when only some of the product's variants are. */
  variant?: string;
  rule: FeedRule;
  message: string;
}

function isZeroAmount(amount: string): boolean {
  return /^0*(\.0*)?$/.test(amount);
}

/** The rule the offer breaks, or undefined when Google accepts it as an item. */
export function findBrokenFeedRule(offer: FeedOffer): FeedRule | undefined {
  if (feedImageOf(offer) === undefined) return 'image_link';
  if (isZeroAmount(offer.variant.price)) return 'price';
  if (!isUsableFeedId(feedIdOf(offer))) return 'id';
  return undefined;
}

const REASONS: Readonly<Record<FeedRule, string>> = {
  image_link: 'has no image, and Google requires image_link',
  price: 'has a price of zero, which Google disapproves',
  id: `has an upstream id that is empty or longer than the ${MAX_ID_LENGTH} characters Google allows for id`,
};

function exclusion(slug: string, rule: FeedRule, variant?: string): FeedExclusion {
  const subject = variant === undefined ? `product "${slug}"` : `product "${slug}" variant "${variant}"`;
  return {
    product: slug,
    ...(variant === undefined ? {} : { variant }),
    rule,
    message: `${subject} ${REASONS[rule]}: left out of feed.xml (still in the catalog)`,
  };
}

/**
 * Splits the planned products' variants into the feed's items and the ones left out with
 * their rule. When every variant of a product breaks the same rule (a product without
 * any image), the product is named once; otherwise each variant left out is named.
 */
export function screenFeedProducts(products: Iterable<PlannedProduct>): {
  items: FeedOffer[];
  excluded: FeedExclusion[];
} {
  const items: FeedOffer[] = [];
  const excluded: FeedExclusion[] = [];
  for (const product of products) screenProduct(product, items, excluded);
  return { items, excluded };
}

/**
 * Only what `screenFeedProducts` leaves out, in one walk that keeps no item: the build's
 * warnings over a catalog that may be read back from disk one product at a time.
 */
export function screenFeedExclusions(products: Iterable<PlannedProduct>): FeedExclusion[] {
  const excluded: FeedExclusion[] = [];
  for (const product of products) addFeedExclusions(excluded, product);
  return excluded;
}

/** Where the screening of exclusions puts the items it keeps: nowhere. */
const NO_ITEMS: Pick<FeedOffer[], 'push'> = { push: () => 0 };

/** What `screenFeedProducts` leaves out of one product, added to `excluded`. */
export function addFeedExclusions(excluded: FeedExclusion[], product: PlannedProduct): void {
  screenProduct(product, NO_ITEMS, excluded);
}

function screenProduct(
  product: PlannedProduct,
  items: Pick<FeedOffer[], 'push'>,
  excluded: FeedExclusion[],
): void {
  const broken: { variant: string; rule: FeedRule }[] = [];
  for (const offer of feedOffersOf(product)) {
    const rule = findBrokenFeedRule(offer);
    if (rule === undefined) items.push(offer);
    else broken.push({ variant: offer.variant.id, rule });
  }
  const slug = product.record.slug;
  const [first] = broken;
  if (first === undefined) return;
  const whole =
    broken.length === product.record.variants.length && broken.every((b) => b.rule === first.rule);
  if (whole) excluded.push(exclusion(slug, first.rule));
  else excluded.push(...broken.map(({ variant, rule }) => exclusion(slug, rule, variant)));
}

function text(item: Record<string, unknown>, name: string): string | undefined {
  const value = item[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

function entries(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

const PRICE = /^(\d+(?:\.\d+)?) [A-Z]{3}$/;

function checkEntries(item: Record<string, unknown>, name: string, required: readonly string[]): string[] {
  const faults: string[] = [];
  for (const entry of entries(item[name])) {
    const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    for (const sub of required) {
      const value = text(record, sub);
      if (value === undefined || value === '') faults.push(`${name} without ${sub}`);
      else if (sub !== 'g:country' && !PRICE.test(value))
        faults.push(`${name} ${sub} is not "12.00 USD" form`);
    }
    for (const kind of ['handling', 'transit']) {
      const min = text(record, `g:min_${kind}_time`);
      const max = text(record, `g:max_${kind}_time`);
      if ((min === undefined) !== (max === undefined))
        faults.push(`${name} gives only one of the ${kind} times`);
      else if (
        min !== undefined &&
        max !== undefined &&
        !(/^\d+$/.test(min) && /^\d+$/.test(max) && Number(min) <= Number(max))
      )
        faults.push(`${name} ${kind} times are not whole days with min ≤ max`);
    }
  }
  return faults;
}

/** Compares decimal amounts that may have different numbers of decimals ("9.5" and "10.00"). */
function compareAmounts(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const digits = Math.max(aFraction.length, bFraction.length);
  return compareDecimal(
    `${aWhole}${aFraction.padEnd(digits, '0')}`,
    `${bWhole}${bFraction.padEnd(digits, '0')}`,
  );
}

/** Google (sale_price, answer 6324471): same form as price, and lower than it. */
function checkSalePrice(item: Record<string, unknown>): string[] {
  const sale = text(item, 'g:sale_price');
  if (sale === undefined) return [];
  const salePrice = PRICE.exec(sale);
  if (salePrice?.[1] === undefined) return ['g:sale_price is not "12.00 USD" form'];
  const price = PRICE.exec(text(item, 'g:price') ?? '');
  if (price?.[1] !== undefined && compareAmounts(salePrice[1], price[1]) >= 0) {
    return ['g:sale_price is not lower than g:price'];
  }
  return [];
}

/** The rules above, checked on one parsed feed item; each fault names the attribute. */
export function checkGoogleItemRules(item: Record<string, unknown>): string[] {
  const faults: string[] = [];
  if ((text(item, 'g:image_link') ?? '') === '') faults.push('missing g:image_link (Google requires it)');
  const price = PRICE.exec(text(item, 'g:price') ?? '');
  if (price?.[1] !== undefined && isZeroAmount(price[1])) faults.push('g:price is zero');
  const hasGtin = (text(item, 'g:gtin') ?? '') !== '';
  const hasBrandAndMpn = (text(item, 'g:brand') ?? '') !== '' && (text(item, 'g:mpn') ?? '') !== '';
  const noIdentifiers = ['no', 'false'].includes((text(item, 'g:identifier_exists') ?? '').toLowerCase());
  if (!hasGtin && !hasBrandAndMpn && !noIdentifiers) {
    faults.push('no g:gtin, no g:brand with g:mpn, and no g:identifier_exists "no"');
  }
  if ((text(item, 'g:brand') ?? '').length > 70) faults.push('g:brand longer than 70 characters');
  faults.push(...checkSalePrice(item));
  faults.push(...checkEntries(item, 'g:shipping', ['g:country', 'g:price']));
  faults.push(...checkEntries(item, 'g:free_shipping_threshold', ['g:country', 'g:price_threshold']));
  return faults;
}
