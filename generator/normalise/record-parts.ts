/**
 * Pieces of the canonical record that every adapter reads the same way from its store's
 * payload: image lists (URL, alt text, size; malformed entries dropped, never fatal),
 * option lists, the unit a store states only in an option ("100 m roll") and the store's
 * own brand. Keeping them here means a Shopify and a WooCommerce product with the same
 * facts become the same record.
 */
import { buildProductRecord, type RecordInput } from '../../record/build-record.js';
import type { ProductImage, ProductOption, SelectedOption } from '../../record/product-record.js';
import { readAbsoluteUrl } from './fields.js';
import type { NormalisedProduct } from './types.js';

/** One image object of either platform ({ src, alt, width, height }); undefined when it has no usable URL. */
export function readImage(raw: unknown): ProductImage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { src, alt, width, height } = raw as Record<string, unknown>;
  const url = readAbsoluteUrl(src);
  if (url === undefined) return undefined;
  const text = typeof alt === 'string' ? alt.trim() : '';
  return {
    url,
    ...(text !== '' ? { alt: text } : {}),
    ...(isPixels(width) ? { width } : {}),
    ...(isPixels(height) ? { height } : {}),
  };
}

function isPixels(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** The usable images of a list, in the store's order, each URL once. */
export function readImages(list: readonly unknown[] | null | undefined): ProductImage[] {
  const images: ProductImage[] = [];
  const seen = new Set<string>();
  for (const raw of list ?? []) {
    const image = readImage(raw);
    if (image === undefined || seen.has(image.url)) continue;
    seen.add(image.url);
    images.push(image);
  }
  return images;
}

/** Options with a name and at least one value, values trimmed and each kept once. */
export function cleanOptions(
  options: readonly { name: string; values: readonly string[] }[],
): ProductOption[] {
  const clean: ProductOption[] = [];
  for (const option of options) {
    const name = option.name.trim();
    const values = [...new Set(option.values.map((value) => value.trim()).filter(Boolean))];
    if (name !== '' && values.length > 0) clean.push({ name, values });
  }
  return clean;
}

/**
 * A quantity with a unit of sale or measure: "100 m roll", "6-pack", "500 g", "12 fl oz",
 * "2 x 1 L". Sizes such as "XS" or colours never match, so they never become packaging.
 */
const QUANTITY_WITH_UNIT =
  /^\d+(?:[.,]\d+)?(?:\s*[x×]\s*\d+(?:[.,]\d+)?)?\s*-?\s*(?:mm|cm|m|km|in|ft|yd|mg|g|kg|lbs?|oz|fl\.?\s*oz|ml|cl|l|gal|pack|pk|pcs|pieces?|count|ct|rolls?|bottles?|cans?|boxes?|bags?|sheets?|meters?|metres?|feet|inch(?:es)?)\b/i;

/**
 * The unit a store states only in an option: the value of an option that has one value
 * for the whole product and reads as a quantity with a unit (a cable whose only variant
 * is "Length: 100 m roll"). Options with several values describe the variants instead,
 * and each variant's title carries them.
 */
export function packagingFromOptions(options: readonly ProductOption[]): string | undefined {
  for (const option of options) {
    const [only, ...others] = option.values;
    if (only !== undefined && others.length === 0 && QUANTITY_WITH_UNIT.test(only)) return only;
  }
  return undefined;
}

/** The selected options of a variant from its values in option order; values without an option name are dropped. */
export function selectOptions(
  options: readonly ProductOption[],
  values: readonly (string | null | undefined)[],
): SelectedOption[] {
  const selected: SelectedOption[] = [];
  for (const [index, option] of options.entries()) {
    const value = values[index]?.trim();
    if (value) selected.push({ name: option.name, value });
  }
  return selected;
}

/** A store's text field (vendor, product type), trimmed, when it is a non-empty string. */
export function readText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The mapped product around a finished record: its first image is the feed's image for now. */
export function assembleProduct(
  input: RecordInput,
  extras: { updatedAt?: string | undefined; descriptionMarkdown?: string | undefined } = {},
): NormalisedProduct {
  const record = buildProductRecord(input);
  const imageUrl = record.images[0]?.url;
  return {
    sourceId: record.id,
    record,
    ...(imageUrl !== undefined ? { imageUrl } : {}),
    ...(extras.updatedAt !== undefined ? { updatedAt: extras.updatedAt } : {}),
    ...(extras.descriptionMarkdown !== undefined ? { descriptionMarkdown: extras.descriptionMarkdown } : {}),
  };
}

/**
 * The fields a store product always maps the same way: its page is where a person reads
 * and buys; the food facts are the merchant's content, which a store never carries;
 * `packaging`, `brand` and `category` only when the store states them.
 */
export function storeProductFields(fields: {
  name: string;
  slug: string;
  url: string;
  currency: string;
  options: readonly ProductOption[];
  brand: string | undefined;
  category: string | undefined;
}) {
  const packaging = packagingFromOptions(fields.options);
  return {
    name: fields.name,
    slug: fields.slug,
    url: fields.url,
    ...(packaging !== undefined ? { packaging } : {}),
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    currency: fields.currency,
    purchase_url: fields.url,
    ...(fields.brand !== undefined ? { brand: fields.brand } : {}),
    ...(fields.category !== undefined ? { category: fields.category } : {}),
  };
}
