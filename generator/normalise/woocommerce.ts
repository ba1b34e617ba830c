/**
 * Maps one product of the WooCommerce Store API (`/wp-json/wc/store/v1/products`) to the
 * spec's Product. Rules (docs/content.md, "How each adapter maps a product", repeats them):
 * name = name; slug = slug (decoded when percent-encoded); url and purchase_url =
 * permalink, the product page; price = `prices.price` (or the low end of
 * `prices.price_range` for variable products), a minor-unit integer string scaled by
 * `prices.currency_minor_unit`; availability = coming_soon when tagged with the coming-soon
 * tag (by name or slug), out_of_stock when `is_in_stock` is false, `is_purchasable` is
 * false or the stock class says so, else in_stock; description = description HTML
 * (short_description when empty) as text.
 */
import { z } from 'zod';
import { formatMinorUnits, minorDigitsFor } from '../../record/decimal-price.js';
import type { Availability, Product } from '../model.js';
import {
  decodeSlug,
  describeSchemaIssue,
  hasTag,
  isUsableSlug,
  readAbsoluteUrl,
  readImageSource,
  readRawId,
  reject,
} from './fields.js';
import { convertHtmlToText } from './html-text.js';
import type { MapContext, MapOutcome } from './types.js';

const amount = z.union([z.string(), z.number().int().nonnegative()]);

const productSchema = z.object({
  id: z.union([z.number(), z.string().min(1)]),
  name: z.string().nullish(),
  slug: z.string().nullish(),
  permalink: z.string().nullish(),
  description: z.string().nullish(),
  short_description: z.string().nullish(),
  prices: z.object({
    price: amount,
    currency_code: z.string().nullish(),
    currency_minor_unit: z.number().int(),
    price_range: z.object({ min_amount: amount }).nullish(),
  }),
  images: z.array(z.unknown()).nullish(),
  tags: z.array(z.object({ name: z.string().nullish(), slug: z.string().nullish() })).nullish(),
  is_purchasable: z.boolean().nullish(),
  is_in_stock: z.boolean().nullish(),
  stock_availability: z.object({ class: z.string().nullish() }).nullish(),
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
  if (source.is_in_stock === false || source.is_purchasable === false) return 'out_of_stock';
  if (source.stock_availability?.class === 'out-of-stock') return 'out_of_stock';
  return 'in_stock';
}

function pickPrice(source: WooSource, currency: string): { price: string } | { reason: string } {
  const { prices } = source;
  const code = prices.currency_code?.trim().toUpperCase();
  if (code && code !== currency)
    return { reason: `is priced in ${code}, not the merchant currency ${currency}` };
  const raw = String(prices.price_range?.min_amount ?? prices.price);
  const price = formatMinorUnits(raw, prices.currency_minor_unit, minorDigitsFor(currency));
  return price === undefined ? { reason: `has an unreadable price ${JSON.stringify(raw)}` } : { price };
}

export function mapWooProduct(raw: unknown, context: MapContext): MapOutcome {
  const parsed = productSchema.safeParse(raw);
  if (!parsed.success) return reject(readRawId(raw), describeSchemaIssue(parsed.error));
  const source = parsed.data;
  const id = String(source.id);
  const name = source.name?.trim() ?? '';
  if (name === '') return reject(id, 'has no name');
  const slug = decodeSlug(source.slug?.trim() ?? '');
  if (!isUsableSlug(slug)) return reject(id, `has an unusable slug ${JSON.stringify(slug)}`, name);
  const url = readAbsoluteUrl(source.permalink);
  if (url === undefined) return reject(id, 'has no absolute permalink', name);
  const picked = pickPrice(source, context.currency);
  if ('reason' in picked) return reject(id, picked.reason, name);
  const tags = readTags(source);
  const record: Product = {
    name,
    slug,
    url,
    description: convertHtmlToText(source.description) ?? convertHtmlToText(source.short_description),
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    price: picked.price,
    currency: context.currency,
    availability: decideAvailability(source, tags.all, context.comingSoonTag),
    purchase_url: url,
  };
  const imageUrl = readAbsoluteUrl(readImageSource(source.images?.[0]));
  return { ok: true, product: { sourceId: id, record, tags: tags.names, ...(imageUrl ? { imageUrl } : {}) } };
}
