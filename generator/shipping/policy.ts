/**
 * The merchant's one shipping policy (config `shipping_policy`): countries, a flat price,
 * an optional free-shipping threshold and handling and transit days, the fields of Google
 * Merchant Center's `shipping` and `free_shipping_threshold` attributes. Both the
 * catalog's human `shipping` sentence and the feed's `g:shipping` are generated from it,
 * so a reader of either learns the same terms. The sentence is a pure function of the
 * policy's fields (and of the note, appended), which is what lets `check` rebuild it from
 * the feed and compare it with the catalog.
 *
 * The older keys still work, with a deprecation warning: `feed.shipping_price` becomes a
 * policy with that flat price to `merchant.ships_to` (the free text `shipping` as its
 * note), and `shipping` alone stays the catalog's text with no `g:shipping` in the feed.
 */
import { z } from 'zod';
import { CatalogError } from '../errors.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal amount such as "12.00"');
const days = z.number().int().min(0).max(60);
const country = z.string().regex(/^[A-Z]{2}$/, 'expected ISO 3166-1 alpha-2 country codes such as "US"');

export const shippingPolicySchema = z
  .object({
    countries: z
      .array(country)
      .min(1)
      .optional()
      .describe('countries this policy ships to (default merchant.ships_to); g:shipping country'),
    price: decimal.describe('flat shipping price per order, in the merchant currency; g:shipping price'),
    free_shipping_threshold: decimal
      .optional()
      .describe('orders of at least this amount ship free; g:free_shipping_threshold price_threshold'),
    min_handling_days: days.optional().describe('fewest business days before an order leaves'),
    max_handling_days: days.optional().describe('most business days before an order leaves'),
    min_transit_days: days.optional().describe('fewest business days in transit'),
    max_transit_days: days.optional().describe('most business days in transit'),
    note: z
      .string()
      .min(1)
      .max(300)
      .optional()
      .describe('a sentence appended to the catalog text, e.g. "Ships cold, Monday to Wednesday."'),
  })
  .strict()
  .refine((policy) => (policy.min_handling_days === undefined) === (policy.max_handling_days === undefined), {
    message: 'give both min_handling_days and max_handling_days, or neither',
  })
  .refine((policy) => (policy.min_transit_days === undefined) === (policy.max_transit_days === undefined), {
    message: 'give both min_transit_days and max_transit_days, or neither',
  })
  .refine((policy) => (policy.min_handling_days ?? 0) <= (policy.max_handling_days ?? 0), {
    message: 'min_handling_days must not exceed max_handling_days',
  })
  .refine((policy) => (policy.min_transit_days ?? 0) <= (policy.max_transit_days ?? 0), {
    message: 'min_transit_days must not exceed max_transit_days',
  });

export type ShippingPolicyInput = z.output<typeof shippingPolicySchema>;

/** A policy with its countries and currency decided: what the sentence and the feed are built from. */
export interface ShippingPolicy {
  countries: string[];
  currency: string;
  price: string;
  freeShippingThreshold?: string;
  handlingDays?: { min: number; max: number };
  transitDays?: { min: number; max: number };
  note?: string;
}

/** The config keys this module reads (a structural subset of the resolved config). */
export interface ShippingConfig {
  merchant: { currency: string; ships_to: readonly string[] };
  shipping?: string | undefined;
  shipping_policy?: ShippingPolicyInput | undefined;
  feed: { shipping_price?: string | undefined };
}

function rangeOf(min: number | undefined, max: number | undefined): { min: number; max: number } | undefined {
  return min === undefined || max === undefined ? undefined : { min, max };
}

/** The policy the config states, migrating the deprecated keys; undefined when there is none. */
export function resolveShippingPolicy(config: ShippingConfig): ShippingPolicy | undefined {
  const input = config.shipping_policy;
  const legacy = ['shipping', 'feed.shipping_price'].filter((key) =>
    key === 'shipping' ? config.shipping !== undefined : config.feed.shipping_price !== undefined,
  );
  if (input !== undefined && legacy.length > 0) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `shipping_policy replaces the deprecated ${legacy.join(' and ')}: remove ${legacy.length > 1 ? 'them' : 'it'} from the config (the policy's note carries free text)`,
      { fields: legacy },
    );
  }
  const currency = config.merchant.currency;
  if (input === undefined) {
    const price = config.feed.shipping_price;
    if (price === undefined) return undefined;
    return {
      countries: [...config.merchant.ships_to],
      currency,
      price,
      ...(config.shipping !== undefined ? { note: config.shipping } : {}),
    };
  }
  const outside = (input.countries ?? []).filter((code) => !config.merchant.ships_to.includes(code));
  if (outside.length > 0) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `shipping_policy.countries: ${outside.join(', ')} not in merchant.ships_to (${config.merchant.ships_to.join(', ')}); the catalog says where the merchant ships`,
      { fields: ['shipping_policy.countries'] },
    );
  }
  const handlingDays = rangeOf(input.min_handling_days, input.max_handling_days);
  const transitDays = rangeOf(input.min_transit_days, input.max_transit_days);
  return {
    countries: [...(input.countries ?? config.merchant.ships_to)],
    currency,
    price: input.price,
    ...(input.free_shipping_threshold !== undefined
      ? { freeShippingThreshold: input.free_shipping_threshold }
      : {}),
    ...(handlingDays ? { handlingDays } : {}),
    ...(transitDays ? { transitDays } : {}),
    ...(input.note !== undefined ? { note: input.note } : {}),
  };
}

/** One warning per deprecated shipping key the config still uses. */
export function describeShippingDeprecations(config: ShippingConfig): string[] {
  const warnings: string[] = [];
  if (config.shipping !== undefined) {
    warnings.push(
      'config key "shipping" is deprecated: use shipping_policy (its note carries free text), so the catalog and the feed state the same terms',
    );
  }
  if (config.feed.shipping_price !== undefined) {
    warnings.push('config key "feed.shipping_price" is deprecated: use shipping_policy.price');
  }
  return warnings;
}

/**
 * One formatter per currency: constructing an `Intl.NumberFormat` costs about 100 µs
 * (locale data), and the gate rebuilds the sentence for every feed item, so a fresh one
 * per call was a quarter of a 10,000-product build. Formatting itself is stateless.
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

function formatMoney(amount: string, currency: string): string {
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format.format(Number(amount));
}

function formatDays(range: { min: number; max: number }): string {
  const unit = range.max === 1 ? 'business day' : 'business days';
  return range.min === range.max ? `${range.max} ${unit}` : `${range.min} to ${range.max} ${unit}`;
}

/** The sentence the policy's fields say, without the note; `check` rebuilds it from the feed. */
export function describeShippingTerms(policy: Omit<ShippingPolicy, 'note'>): string {
  const price =
    Number(policy.price) === 0 ? 'free' : `${formatMoney(policy.price, policy.currency)} per order`;
  const free =
    policy.freeShippingThreshold === undefined
      ? ''
      : `, free on orders of ${formatMoney(policy.freeShippingThreshold, policy.currency)} or more`;
  const parts = [`Ships to ${policy.countries.join(', ')}: ${price}${free}.`];
  if (policy.handlingDays) parts.push(`Orders leave within ${formatDays(policy.handlingDays)}.`);
  if (policy.transitDays) parts.push(`Delivery takes ${formatDays(policy.transitDays)}.`);
  return parts.join(' ');
}

/** The catalog's `shipping` text: the policy's sentence and note, or the deprecated free text. */
export function describeShipping(config: ShippingConfig): string | undefined {
  const policy = resolveShippingPolicy(config);
  if (policy === undefined) return config.shipping;
  const terms = describeShippingTerms(policy);
  return policy.note === undefined ? terms : `${terms} ${policy.note}`;
}
