/**
 * The shipping policy checked once, when the config is resolved, so every mistake in it
 * is CONFIG_INVALID naming the config file and the key, like every other config error,
 * before any upstream request. Besides what `resolveShippingPolicy` refuses, an amount
 * with more decimals than the currency has is refused here: the sentence would round
 * "4.999" to "$5.00" while g:shipping said "4.999 USD", and the two must agree (trailing
 * zeros are allowed: they round to nothing).
 */

import { minorDigitsFor } from '../../record/decimal-price.js';
import { CatalogError, isCatalogError } from '../errors.js';
import { resolveShippingPolicy, type ShippingConfig } from './policy.js';

/** Throws CONFIG_INVALID, prefixed with `file`, when the config's shipping policy is unusable. */
export function assertShippingPolicy(config: ShippingConfig, file: string): void {
  try {
    resolveShippingPolicy(config);
  } catch (error) {
    if (!isCatalogError(error, 'CONFIG_INVALID')) throw error;
    throw new CatalogError('CONFIG_INVALID', `${file}: ${error.message}`, { ...error.details, file });
  }
  const digits = minorDigitsFor(config.merchant.currency);
  const amounts: [string, string | undefined][] = [
    ['shipping_policy.price', config.shipping_policy?.price],
    ['shipping_policy.free_shipping_threshold', config.shipping_policy?.free_shipping_threshold],
    ['feed.shipping_price', config.feed.shipping_price],
  ];
  for (const [key, amount] of amounts) {
    // Trailing zeros change nothing ("500.00" JPY is 500 yen); only digits that would be rounded away count.
    const decimals = amount?.split('.')[1]?.replace(/0+$/, '').length ?? 0;
    if (decimals <= digits) continue;
    throw new CatalogError(
      'CONFIG_INVALID',
      `${file}: ${key}: "${amount}" has ${decimals} significant decimals, but ${config.merchant.currency} amounts have at most ${digits}; write the amount charged`,
      { file, fields: [key] },
    );
  }
}
