/**
 * The attributes of a feed item that describe the thing sold, from the record: images
 * (`g:image_link`, `g:additional_image_link`), identity (`g:brand`, `g:gtin`, `g:mpn`, or
 * `g:identifier_exists` "no"), and the variant attributes Google reads from an option
 * (`g:size`, `g:color`, `g:material`, `g:pattern`). Sources: Google's product data
 * specification (https://support.google.com/merchants/answer/7052112), additional_image_link
 * 6324370 ("Up to 10 additional images"), gtin 6324461, mpn 6324482, brand 6324351 ("Max
 * 70 characters"), size 6324492, color 6324487, material 6324410, pattern 6324483.
 */
import type { ResolvedConfig } from '../config.js';
import type { ProductVariant } from '../model.js';
import { type FeedOffer, feedImageOf } from './feed-offer.js';
import { requireAbsoluteUrl, sanitizeXmlText, truncateText } from './xml-text.js';

/** Google: "Up to 10 additional images". */
export const MAX_ADDITIONAL_IMAGES = 10;
/** Google's g:brand limit. */
const MAX_BRAND_LENGTH = 70;

type Where = (field: string) => { product: string; field: string };

function clean(text: string): string {
  return sanitizeXmlText(text).trim();
}

/** The variant's own image (else the product's first) as g:image_link, the product's others after it. */
export function imageAttributes(offer: FeedOffer, where: Where): Record<string, unknown> {
  const { record } = offer.planned;
  const main = feedImageOf(offer);
  if (main === undefined) return {};
  const others = record.images
    .map((image) => image.url)
    .filter((url, index, all) => url !== main && all.indexOf(url) === index)
    .slice(0, MAX_ADDITIONAL_IMAGES)
    .map((url) => requireAbsoluteUrl(url, where('images.url')));
  return {
    'g:image_link': requireAbsoluteUrl(
      main,
      where(offer.variant.image === undefined ? 'images.url' : 'variants.image'),
    ),
    ...(others.length > 0 ? { 'g:additional_image_link': others } : {}),
  };
}

/**
 * GS1 General Specifications 7.9.1: a GTIN is 8, 12, 13 or 14 digits whose last digit is
 * the check digit (weights 3 and 1 alternating from the right). A store's barcode field
 * often holds something else ("N/A", an internal code); Google disapproves an invalid
 * GTIN, so only a valid one is published.
 */
export function isValidGtin(text: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(text)) return false;
  const digits = Array.from(text, Number);
  const check = digits.pop();
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** g:brand (the record's, else the merchant's), and the identifiers the store knows. */
export function identityAttributes(offer: FeedOffer, config: ResolvedConfig): Record<string, string> {
  const own = clean(offer.planned.record.brand ?? '');
  const brand = own !== '' && own.length <= MAX_BRAND_LENGTH ? own : clean(config.merchant.brand);
  const gtin = clean(offer.variant.gtin ?? '');
  const mpn = clean(offer.variant.sku ?? '');
  const attributes: Record<string, string> = { 'g:brand': brand };
  if (isValidGtin(gtin)) attributes['g:gtin'] = gtin;
  if (mpn !== '') attributes['g:mpn'] = truncateText(mpn, MAX_MPN_LENGTH);
  // Google asks for identifier_exists "no" only when neither a GTIN nor an MPN is known.
  if (attributes['g:gtin'] === undefined && attributes['g:mpn'] === undefined) {
    attributes['g:identifier_exists'] = 'no';
  }
  return attributes;
}

/** Google: mpn "Max 70 alphanumeric characters". */
const MAX_MPN_LENGTH = 70;

/** Option names (lower-cased) Google has an attribute for, with the common synonyms, and its limit. */
const OPTION_ATTRIBUTES: readonly { attribute: string; names: readonly string[]; max: number }[] = [
  {
    attribute: 'g:size',
    names: ['size', 'sizes', 'taille', 'größe', 'talla', 'shoe size', 'clothing size'],
    max: 100,
  },
  { attribute: 'g:color', names: ['color', 'colour', 'colors', 'colours', 'couleur', 'farbe'], max: 100 },
  { attribute: 'g:material', names: ['material', 'materials', 'fabric'], max: 200 },
  { attribute: 'g:pattern', names: ['pattern', 'print'], max: 100 },
];

/** The variant's option values as Google's variant attributes, when an option names one. */
export function optionAttributes(variant: ProductVariant): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const option of variant.options) {
    const name = option.name.trim().toLowerCase();
    const match = OPTION_ATTRIBUTES.find((entry) => entry.names.includes(name));
    const value = clean(option.value);
    if (match === undefined || value === '' || attributes[match.attribute] !== undefined) continue;
    attributes[match.attribute] = truncateText(value, match.max);
  }
  return attributes;
}
