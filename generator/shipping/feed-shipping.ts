/**
 * The shipping policy in Google Merchant Center's terms, both ways: `feedShippingAttributes`
 * writes one `g:shipping` per country (country, price, and the handling and transit days
 * as `g:min_handling_time`, `g:max_handling_time`, `g:min_transit_time`,
 * `g:max_transit_time`) and one `g:free_shipping_threshold` per country (country,
 * price_threshold), per https://support.google.com/merchants/answer/6324484 and answer
 * 14768922; `readFeedShipping` reads them back from an item, so `check` can rebuild the
 * catalog's sentence from what the feed says and compare the two.
 *
 * Every item carries the flat price: Google applies `free_shipping_threshold` itself
 * ("for orders below [the threshold], the standard shipping [shipping] rate will apply"),
 * so the feed states the same two terms the sentence does.
 */
import { describeShippingTerms, type ShippingPolicy } from './policy.js';

type Entry = Record<string, string>;

/** `12.00 USD` form, at least two decimals, as Google's price attributes take it. */
export function formatFeedAmount(amount: string, currency: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')} ${currency}`;
}

export function feedShippingAttributes(policy: ShippingPolicy): Record<string, Entry[]> {
  const shipping = policy.countries.map((country) => {
    const entry: Entry = { 'g:country': country, 'g:price': formatFeedAmount(policy.price, policy.currency) };
    if (policy.handlingDays) {
      entry['g:min_handling_time'] = String(policy.handlingDays.min);
      entry['g:max_handling_time'] = String(policy.handlingDays.max);
    }
    if (policy.transitDays) {
      entry['g:min_transit_time'] = String(policy.transitDays.min);
      entry['g:max_transit_time'] = String(policy.transitDays.max);
    }
    return entry;
  });
  const attributes: Record<string, Entry[]> = { 'g:shipping': shipping };
  const threshold = policy.freeShippingThreshold;
  if (threshold !== undefined) {
    attributes['g:free_shipping_threshold'] = policy.countries.map((country) => ({
      'g:country': country,
      'g:price_threshold': formatFeedAmount(threshold, policy.currency),
    }));
  }
  return attributes;
}

function entriesOf(value: unknown): Record<string, unknown>[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter(
    (entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null,
  );
}

function textOf(entry: Record<string, unknown>, name: string): string | undefined {
  const value = entry[name];
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
}

function range(entry: Record<string, unknown>, kind: 'handling' | 'transit') {
  const min = textOf(entry, `g:min_${kind}_time`);
  const max = textOf(entry, `g:max_${kind}_time`);
  return min === undefined || max === undefined ? undefined : { min: Number(min), max: Number(max) };
}

/**
 * The terms one feed item states, as the sentence the catalog must start with; undefined
 * when the item has no `g:shipping` (Merchant Center's account settings apply then), or
 * a reason when its entries disagree among themselves.
 */
export function readFeedShipping(
  item: Record<string, unknown>,
): { terms: string } | { problem: string } | undefined {
  const entries = entriesOf(item['g:shipping']);
  const first = entries[0];
  if (first === undefined) return undefined;
  const price = /^(\d+(?:\.\d+)?) ([A-Z]{3})$/.exec(textOf(first, 'g:price') ?? '');
  // The feed checker names a malformed price; there are no terms to compare then.
  if (price === null) return { problem: 'g:shipping has no price in "12.00 USD" form' };
  const [, amount = '', currency = ''] = price;
  const shape = (entry: Record<string, unknown>) =>
    JSON.stringify([textOf(entry, 'g:price'), range(entry, 'handling'), range(entry, 'transit')]);
  if (entries.some((entry) => shape(entry) !== shape(first))) {
    return { problem: 'g:shipping differs between countries, which one catalog sentence cannot say' };
  }
  const thresholds = entriesOf(item['g:free_shipping_threshold']).map((entry) =>
    textOf(entry, 'g:price_threshold'),
  );
  if (new Set(thresholds).size > 1) return { problem: 'g:free_shipping_threshold differs between countries' };
  const threshold = thresholds[0]?.split(' ')[0];
  if (threshold !== undefined && !/^\d+(\.\d+)?$/.test(threshold)) {
    return { problem: 'g:free_shipping_threshold has no price_threshold in "12.00 USD" form' };
  }
  const handlingDays = range(first, 'handling');
  const transitDays = range(first, 'transit');
  const terms = describeShippingTerms({
    countries: entries.map((entry) => textOf(entry, 'g:country') ?? ''),
    currency,
    price: amount,
    ...(threshold !== undefined ? { freeShippingThreshold: threshold } : {}),
    ...(handlingDays ? { handlingDays } : {}),
    ...(transitDays ? { transitDays } : {}),
  });
  return { terms };
}
