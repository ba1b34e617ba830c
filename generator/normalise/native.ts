/**
 * Maps one product of a native upstream document, one already in the spec's Product
 * shape (spec part 2.4), checking it rather than trusting it: a name and a usable slug
 * are required, the price is re-formatted to the currency's minor digits, the currency
 * must be the merchant's, availability must be one of the three states, url defaults
 * to `{storefront_url}/products/{slug}` and purchase_url to url, and a purchase_url that
 * points at a cart or checkout is refused (the catalog links people to a page where
 * they buy; it never automates a purchase, spec part 1.2). Optional extensions the
 * spec has no field for: `id`, `image_url`, `updated_at`, `tags`.
 */
import { z } from 'zod';
import { formatDecimalPrice, minorDigitsFor } from '../../record/decimal-price.js';
import { AVAILABILITIES, type Product } from '../model.js';
import {
  buildProductUrl,
  describeSchemaIssue,
  isUsableSlug,
  readAbsoluteUrl,
  readIsoTime,
  readRawId,
  readTags,
  reject,
} from './fields.js';
import { convertHtmlToText } from './html-text.js';
import type { MapContext, MapOutcome } from './types.js';

const text = z.string().trim().min(1);

const productSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).optional(),
  name: z.string().nullish(),
  slug: z.string().nullish(),
  flavor: text.optional(),
  url: z.string().nullish(),
  description: z.string().nullish(),
  packaging: text.optional(),
  ingredients: z.union([z.array(z.string()), z.string()]).nullish(),
  nutrition: z.record(z.string(), z.union([z.string(), z.number()])).nullish(),
  benefits: z.array(z.string()).nullish(),
  certifications: z.array(z.string()).nullish(),
  price: z.union([z.string(), z.number().nonnegative()]),
  currency: z.string().nullish(),
  availability: z.enum(AVAILABILITIES),
  shipping: text.optional(),
  purchase_url: z.string().nullish(),
  image_url: z.string().nullish(),
  updated_at: z.string().nullish(),
  tags: z.unknown().optional(),
});

const CART_OR_CHECKOUT = /\/(?:cart|checkout|checkouts)(?:[/?#]|$)|[?&]add-to-cart=/i;
const LOOKS_LIKE_HTML = /<\/?[a-z][^>]*>|&[a-z]+;|&#\d+;/i;

function readDescription(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return LOOKS_LIKE_HTML.test(value) ? convertHtmlToText(value) : value.trim();
}

function resolveLinks(
  source: z.infer<typeof productSchema>,
  slug: string,
  siteUrl: string,
): { url: string; purchaseUrl: string } | { reason: string } {
  const url = source.url ? readAbsoluteUrl(source.url) : buildProductUrl(siteUrl, slug);
  if (url === undefined) return { reason: `has a url that is not an absolute http(s) URL` };
  const purchaseUrl = source.purchase_url ? readAbsoluteUrl(source.purchase_url) : url;
  if (purchaseUrl === undefined) return { reason: `has a purchase_url that is not an absolute http(s) URL` };
  if (CART_OR_CHECKOUT.test(purchaseUrl)) {
    return { reason: 'has a purchase_url pointing at a cart or checkout; it must be the product page' };
  }
  return { url, purchaseUrl };
}

export function mapNativeProduct(raw: unknown, context: MapContext): MapOutcome {
  const parsed = productSchema.safeParse(raw);
  const rawId = readRawId(raw, 'slug');
  if (!parsed.success) return reject(rawId, describeSchemaIssue(parsed.error));
  const source = parsed.data;
  const name = source.name?.trim() ?? '';
  const slug = source.slug?.trim() ?? '';
  const id = source.id === undefined ? slug || rawId : String(source.id);
  if (name === '') return reject(id, 'has no name');
  if (!isUsableSlug(slug)) return reject(id, `has an unusable slug ${JSON.stringify(slug)}`, name);
  const currency = source.currency?.trim().toUpperCase() || context.currency;
  if (currency !== context.currency) {
    return reject(id, `is priced in ${currency}, not the merchant currency ${context.currency}`, name);
  }
  const price = formatDecimalPrice(String(source.price), minorDigitsFor(currency));
  if (price === undefined) return reject(id, `has an unreadable price ${JSON.stringify(source.price)}`, name);
  const links = resolveLinks(source, slug, context.siteUrl);
  if ('reason' in links) return reject(id, links.reason, name);
  const record: Product = {
    name,
    ...(source.flavor ? { flavor: source.flavor } : {}),
    slug,
    url: links.url,
    description: readDescription(source.description),
    ...(source.packaging ? { packaging: source.packaging } : {}),
    ingredients: source.ingredients ?? null,
    nutrition: source.nutrition ?? null,
    benefits: source.benefits ?? null,
    certifications: source.certifications ?? null,
    price,
    currency,
    availability: source.availability,
    ...(source.shipping ? { shipping: source.shipping } : {}),
    purchase_url: links.purchaseUrl,
  };
  const imageUrl = readAbsoluteUrl(source.image_url);
  const updatedAt = readIsoTime(source.updated_at);
  const extras = { ...(imageUrl ? { imageUrl } : {}), ...(updatedAt ? { updatedAt } : {}) };
  return { ok: true, product: { sourceId: id, record, tags: readTags(source.tags), ...extras } };
}
