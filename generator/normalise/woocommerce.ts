/**
 * Maps one product of the WooCommerce Store API (`/wp-json/wc/store/v1/products`) to the
 * canonical record. Rules (docs/content.md, "How each adapter maps a product", repeats them):
 * name = name; slug = slug (decoded when percent-encoded), or the last path segment of
 * the permalink when the answer has no `slug` field (older Store API versions); url and
 * purchase_url = permalink; id = id; brand = the first of `brands`; category = the first
 * of `categories`; tags by name; images (src, alt); options = `attributes` with their
 * terms. Prices are minor-unit integer strings scaled by `prices.currency_minor_unit`.
 * Availability: coming_soon when tagged with the coming-soon tag (by name or slug);
 * in_stock when on backorder (`is_on_backorder`, stock class `on-backorder`: the shopper
 * can buy it); out_of_stock when `is_in_stock` is false, the stock class says so, or a
 * simple or variable product is not purchasable; else in_stock. Variants: a simple or
 * external product is its own one variant (sale price = `regular_price` when higher
 * than `price`); a variable product's `variations` become variants named by their
 * attribute terms, but the Store API list gives no price per variation, so each is
 * priced only when the product's range is one price, and otherwise the product stays one
 * variant at its lowest price with the stated `price_range`; a grouped product is
 * summarised from its children, resolved within the same crawl (`resolveGroupedProducts`).
 * `virtual` (the REST API's field, when a store sends it) means no shipping. Description =
 * description HTML (short_description when empty).
 */
import { z } from 'zod';
import { formatMinorUnits, minorDigitsFor } from '../../record/decimal-price.js';
import type {
  Availability,
  PriceRange,
  ProductOption,
  ProductVariant,
  SelectedOption,
} from '../../record/product-record.js';
import { readCompareAtPrice } from '../../record/summarise-variants.js';
import {
  decodeSlug,
  describeSchemaIssue,
  describeUnusableSlug,
  hasTag,
  isUsableSlug,
  readAbsoluteUrl,
  readRawId,
  reject,
} from './fields.js';
import { convertDescription } from './html-text.js';
import { assembleProduct, cleanOptions, readImages, readText, storeProductFields } from './record-parts.js';
import type { MapContext, MapOutcome } from './types.js';

const amount = z.union([z.string(), z.number().int().nonnegative()]);
const id = z.union([z.number(), z.string().min(1)]);
const named = z
  .array(z.object({ name: z.string().nullish(), slug: z.string().nullish() }).catch({}))
  .nullish();

const productSchema = z.object({
  id,
  name: z.string().nullish(),
  slug: z.string().nullish(),
  type: z.string().nullish(),
  permalink: z.string().nullish(),
  sku: z.string().nullish().catch(undefined),
  description: z.string().nullish(),
  short_description: z.string().nullish(),
  prices: z.object({
    price: amount,
    regular_price: amount.nullish().catch(undefined),
    currency_code: z.string().nullish(),
    currency_minor_unit: z.number().int(),
    price_range: z.object({ min_amount: amount, max_amount: amount.nullish() }).nullish().catch(undefined),
  }),
  images: z.array(z.unknown()).nullish(),
  tags: named,
  categories: named,
  brands: named,
  attributes: z
    .array(
      z
        .object({
          name: z.string(),
          terms: z.array(z.object({ name: z.string(), slug: z.string().nullish() })).catch([]),
        })
        .catch({ name: '', terms: [] }),
    )
    .nullish(),
  variations: z
    .array(
      z.object({
        id,
        attributes: z.array(z.object({ name: z.string(), value: z.string().nullish() })).catch([]),
      }),
    )
    .nullish()
    .catch(undefined),
  grouped_products: z.array(id).nullish().catch(undefined),
  is_purchasable: z.boolean().nullish(),
  is_in_stock: z.boolean().nullish(),
  is_on_backorder: z.boolean().nullish(),
  stock_availability: z.object({ class: z.string().nullish() }).nullish(),
  virtual: z.boolean().nullish().catch(undefined),
});

type WooSource = z.infer<typeof productSchema>;

/** Tag names (what the merchant sees) and slugs (what URLs use); the coming-soon tag may be either. */
function readTags(source: WooSource): { names: string[]; all: string[] } {
  const names: string[] = [];
  const all: string[] = [];
  for (const tag of source.tags ?? []) {
    const name = tag.name?.trim();
    const slug = tag.slug?.trim();
    if (name) names.push(name);
    for (const value of [name, slug]) if (value) all.push(value);
  }
  return { names, all };
}

function decideAvailability(source: WooSource, tags: string[], comingSoonTag: string): Availability {
  if (hasTag(tags, comingSoonTag)) return 'coming_soon';
  const stockClass = source.stock_availability?.class;
  // A backorder is a sale the shopper can make today (docs/content.md).
  if (source.is_on_backorder === true || stockClass === 'on-backorder') return 'in_stock';
  if (source.is_in_stock === false || stockClass === 'out-of-stock') return 'out_of_stock';
  // Grouped and external products are never purchasable here: their children, or another site, are.
  const ownSale = source.type !== 'grouped' && source.type !== 'external';
  if (ownSale && source.is_purchasable === false) return 'out_of_stock';
  return 'in_stock';
}

interface Prices {
  price: string;
  regular?: string;
  range?: PriceRange;
}

function readPrices(source: WooSource, currency: string): Prices | { reason: string } {
  const { prices } = source;
  const code = prices.currency_code?.trim().toUpperCase();
  if (code && code !== currency)
    return { reason: `is priced in ${code}, not the merchant currency ${currency}` };
  const scale = (value: string | number | null | undefined) =>
    value == null || value === ''
      ? undefined
      : formatMinorUnits(String(value), prices.currency_minor_unit, minorDigitsFor(currency));
  const raw = prices.price_range?.min_amount ?? prices.price;
  const price = scale(raw);
  if (price === undefined) return { reason: `has an unreadable price ${JSON.stringify(raw)}` };
  const max = scale(prices.price_range?.max_amount);
  const regular = scale(prices.regular_price);
  return {
    price,
    ...(regular !== undefined ? { regular } : {}),
    ...(max !== undefined && max !== price ? { range: { min: price, max } } : {}),
  };
}

/** The slug field, or (older Store API answers have none) the permalink's last path segment. */
function readSlug(source: WooSource, url: string): { slug: string } | { reason: string } {
  if (source.slug != null && source.slug.trim() !== '') {
    const slug = decodeSlug(source.slug.trim());
    return isUsableSlug(slug) ? { slug } : { reason: describeUnusableSlug('slug', slug) };
  }
  const permalink = new URL(url);
  const segments = permalink.pathname.split('/').filter(Boolean);
  // Plain permalinks ("?product=<slug>") name the product in the query instead.
  const named = permalink.searchParams.get('product') ?? segments[segments.length - 1] ?? '';
  const last = decodeSlug(named.toLowerCase());
  if (isUsableSlug(last)) return { slug: last };
  return { reason: 'has no `slug` field, and its permalink ends in no usable slug' };
}

function readOptions(source: WooSource): ProductOption[] {
  return cleanOptions(
    (source.attributes ?? []).map((attribute) => ({
      name: attribute.name,
      values: attribute.terms.map((term) => term.name),
    })),
  );
}

/** A variation's attribute values as option values: the term's name where the value is its slug. */
function selectVariationOptions(
  source: WooSource,
  attributes: readonly { name: string; value?: string | null | undefined }[],
): SelectedOption[] {
  const selected: SelectedOption[] = [];
  for (const { name, value } of attributes) {
    const text = value?.trim();
    // An empty value means "any": the variation fits every term of that attribute.
    if (!text || name.trim() === '') continue;
    const attribute = (source.attributes ?? []).find((candidate) => candidate.name === name);
    const term = attribute?.terms.find((candidate) => candidate.slug === text || candidate.name === text);
    selected.push({ name: name.trim(), value: term?.name ?? text });
  }
  return selected;
}

interface VariantFacts {
  productId: string;
  name: string;
  sku?: string;
  prices: Prices;
  availability: Availability;
  requiresShipping: boolean;
}

function buildVariants(source: WooSource, facts: VariantFacts): ProductVariant[] {
  const base = { availability: facts.availability, requires_shipping: facts.requiresShipping };
  const variations = source.type === 'variable' ? (source.variations ?? []) : [];
  // Without a price per variation, only a one-price range lets each variation be priced truthfully.
  if (variations.length > 0 && facts.prices.range === undefined) {
    return variations.map((variation) => {
      const options = selectVariationOptions(source, variation.attributes);
      return {
        id: String(variation.id),
        title: options.length > 0 ? options.map((option) => option.value).join(' / ') : facts.name,
        options,
        price: facts.prices.price,
        ...base,
      };
    });
  }
  const wasPrice =
    source.type === 'simple' || source.type === 'external'
      ? readCompareAtPrice(facts.prices.price, facts.prices.regular)
      : undefined;
  return [
    {
      id: facts.productId,
      title: facts.name,
      options: [],
      ...(facts.sku ? { sku: facts.sku } : {}),
      price: facts.prices.price,
      ...(wasPrice !== undefined ? { compare_at_price: wasPrice } : {}),
      ...base,
    },
  ];
}

/** The stand-in price of a grouped product without its own, replaced by its children's. */
function zeroPrice(currency: string): string {
  const digits = minorDigitsFor(currency);
  return digits === 0 ? '0' : `0.${'0'.repeat(digits)}`;
}

function firstName(list: WooSource['brands']): string | undefined {
  return readText(list?.find((item) => readText(item.name) !== undefined)?.name);
}

export function mapWooProduct(raw: unknown, context: MapContext): MapOutcome {
  const parsed = productSchema.safeParse(raw);
  if (!parsed.success) return reject(readRawId(raw), describeSchemaIssue(parsed.error));
  const source = parsed.data;
  const productId = String(source.id);
  const name = source.name?.trim() ?? '';
  if (name === '') return reject(productId, 'has no name');
  const url = readAbsoluteUrl(source.permalink);
  if (url === undefined) return reject(productId, 'has no absolute permalink', name);
  const slug = readSlug(source, url);
  if ('reason' in slug) return reject(productId, slug.reason, name);
  const grouped = source.type === 'grouped' ? (source.grouped_products ?? []).map(String) : [];
  const read = readPrices(source, context.currency);
  // A grouped product may have no price of its own: its children's stand in for it.
  if ('reason' in read && grouped.length === 0) return reject(productId, read.reason, name);
  const prices: Prices = 'reason' in read ? { price: zeroPrice(context.currency) } : read;
  const tags = readTags(source);
  const options = readOptions(source);
  const sku = source.sku?.trim();
  const variants = buildVariants(source, {
    productId,
    name,
    ...(sku ? { sku } : {}),
    prices,
    availability: decideAvailability(source, tags.all, context.comingSoonTag),
    requiresShipping: source.virtual !== true,
  });
  const description = convertDescription(source.description);
  const text = description.text === null ? convertDescription(source.short_description) : description;
  const brand = firstName(source.brands);
  const category = firstName(source.categories);
  const product = assembleProduct(
    {
      ...storeProductFields({
        name,
        slug: slug.slug,
        url,
        currency: context.currency,
        options,
        brand,
        category,
      }),
      description: text.text,
      id: productId,
      tags: tags.names,
      images: readImages(source.images),
      options,
      variants,
      ...(prices.range !== undefined ? { statedPriceRange: prices.range } : {}),
    },
    { descriptionMarkdown: text.markdown },
  );
  if (grouped.length === 0) return { ok: true, product };
  return { ok: true, product: { ...product, grouped: { childIds: grouped, ownPrice: !('reason' in read) } } };
}
