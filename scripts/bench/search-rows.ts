/**
 * Synthetic products for the search benchmark at 100,000 and 1,000,000 products, made one
 * at a time from their number (no catalog held in memory): made-up words drawn from a
 * 20,000-word vocabulary with a skew (a few words common, most rare), a model number on
 * one product in ten (a word only it carries), 40 categories, 60 brands and three
 * variants ("12 fl oz", "3-pack", "6-pack") priced $3–$100, 10% sold out. The same number
 * always gives the same product, so the builder and the questions agree without sharing
 * a file.
 */
import type { SearchRow } from '../../live/search-index-file.js';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'shi',
  'po',
  've',
  'di',
  'ga',
  'zu',
  'be',
  'fo',
  'ri',
  'an',
];
const VOCABULARY = 20_000;

/** A made-up word for a number: its base-16 digits as syllables. */
export function wordOf(number: number): string {
  let word = '';
  let rest = number;
  do {
    word += SYLLABLES[rest % 16];
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return word;
}

/** A number in [0, 1) for (product, salt): a hash, so any product can be made alone. */
function unit(product: number, salt: number): number {
  let hash = Math.imul(product ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  hash = Math.imul(hash ^ (hash >>> 16), 0x7feb352d);
  hash = Math.imul(hash ^ (hash >>> 15), 0x846ca68b);
  return ((hash ^ (hash >>> 16)) >>> 0) / 4294967296;
}

/** A vocabulary word, common ones far more often (the square of a uniform number skews it). */
function skewedWord(product: number, salt: number): string {
  const u = unit(product, salt);
  return wordOf(Math.floor(u * u * VOCABULARY));
}

export const productIdOf = (product: number): string => `gid://shopify/Product/${8_000_000_000 + product}`;

/** The three prices of a product, in minor units. */
export function pricesOf(product: number): number[] {
  const base = 300 + Math.floor(unit(product, 99) * 9_700);
  return [base, base + 250, base + 500];
}

export function searchRowAt(product: number): SearchRow {
  const name = [0, 1, 2].map((salt) => skewedWord(product, salt)).join(' ');
  const description = Array.from({ length: 12 }, (_, at) => skewedWord(product, 10 + at));
  if (product % 10 === 0) description.push(`model${product.toString(36)}`);
  const category = `category ${wordOf(product % 40)}`;
  return {
    id: productIdOf(product),
    fields: [
      name,
      `brand ${wordOf(1000 + (product % 60))}`,
      category,
      description.join(' '),
      'Pack 12 fl oz 3-pack 6-pack',
      [30, 31, 32].map((salt) => skewedWord(product, salt)).join(' '),
    ],
    category,
    offers: pricesOf(product).map((amount, at) => ({ amount, available: unit(product, 50 + at) > 0.1 })),
  };
}
