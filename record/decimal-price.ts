/**
 * Prices as exact decimal text. Upstream prices arrive as decimal strings (Shopify
 * "1234.50") or as minor-unit integers with their exponent (WooCommerce "1234" with
 * `currency_minor_unit` 2); the catalog publishes decimal text with the currency's
 * minor digits. Everything here works on digit strings and BigInt, never on binary
 * floating point, so "0.10" + formatting can never become "0.09999".
 */

const minorDigitsCache = new Map<string, number>();

/** The currency's usual number of decimal digits (USD 2, JPY 0, BHD 3), per ICU. */
export function minorDigitsFor(currency: string): number {
  const cached = minorDigitsCache.get(currency);
  if (cached !== undefined) return cached;
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  minorDigitsCache.set(currency, digits);
  return digits;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Formats a non-negative decimal string to exactly `digits` fraction digits, rounding
 * half up when the upstream carries more digits than the currency has. Returns undefined
 * for anything that is not a plain non-negative decimal ("12,50", "-1", "1e3", "").
 */
export function formatDecimalPrice(text: string, digits: number): string | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  // Scale to digits+1 fraction digits as an integer, then round the extra digit away.
  const padded = `${fraction}${'0'.repeat(digits + 1)}`.slice(0, digits + 1);
  let scaled = BigInt(`${whole}${padded}`);
  const roundUp = scaled % 10n >= 5n;
  scaled = scaled / 10n + (roundUp ? 1n : 0n);
  return formatScaled(scaled, digits);
}

/** "1234" with exponent 2 → "12.34", then formatted to the currency's `digits`. */
export function formatMinorUnits(text: string, minorUnit: number, digits: number): string | undefined {
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(minorUnit) || minorUnit < 0 || minorUnit > 6) {
    return undefined;
  }
  const decimal = formatScaled(BigInt(text.trim()), minorUnit);
  return formatDecimalPrice(decimal, digits);
}

function formatScaled(value: bigint, digits: number): string {
  const text = value.toString().padStart(digits + 1, '0');
  if (digits === 0) return text;
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Compares two decimal strings of the same digits by value, for picking the lowest price. */
export function compareDecimal(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const aDigits = `${aWhole}${aFraction}`;
  const bDigits = `${bWhole}${bFraction}`;
  // Up to 15 digits a Number holds the value exactly, and is far cheaper than BigInt.
  if (SAFE_DIGITS.test(aDigits) && SAFE_DIGITS.test(bDigits))
    return Math.sign(Number(aDigits) - Number(bDigits));
  const difference = BigInt(aDigits) - BigInt(bDigits);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

const SAFE_DIGITS = /^\d{1,15}$/;

/**
 * A decimal amount as an integer count of the currency's minor units, as UCP and the ACP
 * feed publish prices (ISO 4217: USD "29.00" → 2900, JPY "1500" → 1500, BHD "1.250" →
 * 1250). Undefined for text that is not a plain non-negative decimal, or a value past
 * Number.MAX_SAFE_INTEGER (JSON readers could not hold it exactly).
 */
export function toMinorUnits(decimal: string, currency: string): number | undefined {
  const formatted = formatDecimalPrice(decimal, minorDigitsFor(currency));
  if (formatted === undefined) return undefined;
  const units = BigInt(formatted.replace('.', ''));
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : undefined;
}

/** Decimal text in one canonical form ("12.5" and "12.50" are the same price), for comparing documents. */
export function canonicalPrice(price: string): string {
  const [whole = '', fraction = ''] = price.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? whole : `${whole}.${trimmed}`;
}
