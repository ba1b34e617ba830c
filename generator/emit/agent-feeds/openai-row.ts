/**
 * One variant of the canonical record as one row of OpenAI's product feed (the flat-file
 * schema ChatGPT ingests: "Submit one row per purchasable item or variant"). The offer
 * (id, link, price, sale price, availability) comes from `record/variant-offers.ts`, the one
 * rule every feed shares; the rest is read from the record and the feed's settings. Rows
 * are plain objects in the spec's column order, serialised by `openai-feed.ts` as JSON
 * Lines and as CSV.
 *
 * Eligibility follows Google's item rules: a zero price makes a row not eligible for
 * search; a variant with no image is left out (image_url is required) with a warning.
 * Purchases happen on the store, so `is_eligible_checkout` is always false. The rows of a
 * product with several variants carry OpenAI's variant fields beside `group_id`:
 * `listing_has_variations: true` and `variant_dict` (the variant's option values by option
 * name); every other row says `listing_has_variations: false`. `size` is the value of an option named as a size, and only when it fits the
 * spec's 20 characters: a longer one (a packaging such as "16 fl oz (473 mL) PET bottle")
 * is no size, and cutting it would state a wrong one. Plain-text fields are written by
 * `plain-text.ts`'s rule for angle brackets.
 */
import type { ProductRecord, ProductVariant } from '../../../record/product-record.js';
import { imageOf, offerOf } from '../../../record/variant-offers.js';
import { optionValueOf } from '../../../record/variant-options.js';
import type { ResolvedConfig } from '../../config.js';
import type { OpenAiFeedSettings } from '../../config-agent-feeds.js';
import { truncateText } from '../xml-text.js';
import { neutraliseAngleBrackets } from './plain-text.js';

/** The spec's limits: item_id 100, title 150, description 5,000, brand, mpn and group_id 70, size 20 characters. */
export const OPENAI_LIMITS = {
  item_id: 100,
  title: 150,
  description: 5000,
  brand: 70,
  mpn: 70,
  group_id: 70,
  size: 20,
};

/**
 * Every column, in the order the CSV writes them. Required by the spec: the two flags, the
 * nine basic fields (item_id, title, description, url, brand, image_url, price,
 * availability, seller_name), seller_url, return_policy, target_countries, store_country.
 */
export const OPENAI_COLUMNS = [
  'is_eligible_search',
  'is_eligible_checkout',
  'item_id',
  'group_id',
  'listing_has_variations',
  'variant_dict',
  'gtin',
  'mpn',
  'title',
  'description',
  'url',
  'brand',
  'product_category',
  'condition',
  'color',
  'size',
  'image_url',
  'additional_image_urls',
  'price',
  'sale_price',
  'availability',
  'seller_name',
  'seller_url',
  'return_policy',
  'return_window',
  'target_countries',
  'store_country',
] as const;

export type OpenAiColumn = (typeof OPENAI_COLUMNS)[number];
export type OpenAiCell = string | number | boolean | string[] | Readonly<Record<string, string>>;
export type OpenAiRow = Partial<Record<OpenAiColumn, OpenAiCell>>;

/** The catalog's three states in the feed's terms: nothing can be ordered before it is released. */
export const OPENAI_AVAILABILITY = {
  in_stock: 'in_stock',
  out_of_stock: 'out_of_stock',
  coming_soon: 'out_of_stock',
} as const;

const GTIN = /^\d{8}$|^\d{12,14}$/;

function isZeroAmount(amount: string): boolean {
  return /^0*(\.0*)?$/.test(amount);
}

function formatAmount(amount: string, currency: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')} ${currency}`;
}

function titleOf(record: ProductRecord, variant: ProductVariant): string {
  // A variant's own title ("Red / S") says which one; a lone variant is titled as its product.
  const named =
    record.variants.length > 1 && variant.title !== record.name
      ? `${record.name} - ${variant.title}`
      : record.name;
  return truncateText(neutraliseAngleBrackets(named.replace(/\s+/g, ' ').trim()), OPENAI_LIMITS.title);
}

function describe(record: ProductRecord): string {
  const own = record.description?.trim() ?? '';
  const text = own !== '' ? own : [record.name, record.flavor, record.packaging].filter(Boolean).join(' — ');
  return truncateText(neutraliseAngleBrackets(text), OPENAI_LIMITS.description);
}

/** OpenAI's variant fields: `listing_has_variations` on every row, the rest on a product sold in several variants. */
function variantFields(record: ProductRecord, variant: ProductVariant): OpenAiRow {
  if (record.variants.length <= 1) return { listing_has_variations: false };
  const options = Object.fromEntries(variant.options.map((option) => [option.name, option.value]));
  return {
    group_id: truncateText(record.id, OPENAI_LIMITS.group_id),
    listing_has_variations: true,
    ...(variant.options.length > 0 ? { variant_dict: options } : {}),
  };
}

/** The size option's value, when it is one OpenAI can take (at most 20 characters). */
function sizeOf(variant: ProductVariant): string | undefined {
  const value = optionValueOf(variant, 'size');
  return value !== undefined && Array.from(value).length <= OPENAI_LIMITS.size ? value : undefined;
}

/**
 * True when `variant` has a row (`buildOpenAiRow` gives one): it has an image. The feed
 * counts each product's rows with it, without building them, to know where its shards begin.
 */
export function hasOpenAiRow(record: ProductRecord, variant: ProductVariant): boolean {
  return imageOf(record, variant) !== undefined;
}

/** The row of one variant, or undefined when it has no image (the reason is the caller's warning). */
export function buildOpenAiRow(
  record: ProductRecord,
  variant: ProductVariant,
  config: ResolvedConfig,
  settings: OpenAiFeedSettings,
): OpenAiRow | undefined {
  // Undefined exactly when `hasOpenAiRow` is false.
  const image = imageOf(record, variant);
  if (image === undefined) return undefined;
  const offer = offerOf(record, variant);
  const current = offer.salePrice ?? offer.price;
  const others = record.images.map((entry) => entry.url).filter((url) => url !== image);
  const row: OpenAiRow = {
    is_eligible_search: !isZeroAmount(current),
    is_eligible_checkout: false,
    item_id: offer.variantId,
    ...variantFields(record, variant),
    ...(variant.gtin !== undefined && GTIN.test(variant.gtin) ? { gtin: variant.gtin } : {}),
    ...(variant.sku !== undefined ? { mpn: truncateText(variant.sku, OPENAI_LIMITS.mpn) } : {}),
    title: titleOf(record, variant),
    description: describe(record),
    url: offer.url,
    brand: truncateText(record.brand ?? config.merchant.brand, OPENAI_LIMITS.brand),
    ...(config.feed.google_product_category !== undefined
      ? { product_category: config.feed.google_product_category }
      : record.category !== undefined
        ? { product_category: record.category }
        : {}),
    condition: config.feed.condition,
    ...optionColumn('color', optionValueOf(variant, 'color')),
    ...optionColumn('size', sizeOf(variant)),
    image_url: image,
    ...(others.length > 0 ? { additional_image_urls: others } : {}),
    price: formatAmount(offer.price, offer.currency),
    ...(offer.salePrice !== undefined ? { sale_price: formatAmount(offer.salePrice, offer.currency) } : {}),
    availability: OPENAI_AVAILABILITY[offer.availability],
    seller_name: settings.seller_name,
    seller_url: settings.seller_url,
    return_policy: settings.return_policy,
    ...(settings.return_window !== undefined ? { return_window: settings.return_window } : {}),
    target_countries: settings.target_countries,
    store_country: settings.store_country,
  };
  return row;
}

function optionColumn(column: 'color' | 'size', value: string | undefined): OpenAiRow {
  return value === undefined ? {} : { [column]: value };
}
