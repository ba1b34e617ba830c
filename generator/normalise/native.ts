/**
 * Maps one product of a native upstream document, one already in the spec's Product
 * shape (spec part 2.4), checking it rather than trusting it: a name and a usable slug
 * are required, the price is re-formatted to the currency's minor digits, the currency
 * must be the merchant's, availability must be one of the three states, url defaults
 * to `{storefront_url}/products/{slug}` and purchase_url to url, and a purchase_url that
 * points at a cart or checkout is refused (the catalog links people to a page where
 * they buy; it never automates a purchase, spec part 1.2). The record's optional
 * extensions are accepted and checked the same way: `id`, `brand`, `category`, `tags`,
 * `images` ({ url, alt, width, height }; `image_url` is the older one-image form),
 * `options` ({ name, values }), `variants` (the record's variant shape; each price in the
 * merchant's currency, each option value one of its option's values) and
 * `requires_shipping`; plus `updated_at`. With `variants`, `price` and `availability` may be
 * left out (they follow from the variants by `record/summarise-variants.ts`); when given
 * they must agree. Without, the product is its own one variant.
 */
import { z } from 'zod';
import { singleVariantOf } from '../../record/build-record.js';
import { formatDecimalPrice, minorDigitsFor } from '../../record/decimal-price.js';
import type { ProductImage, ProductOption, ProductVariant } from '../../record/product-record.js';
import { readCompareAtPrice, summariseVariants } from '../../record/summarise-variants.js';
import { AVAILABILITIES } from '../model.js';
import {
  buildProductUrl,
  describeSchemaIssue,
  describeUnusableSlug,
  isUsableSlug,
  readAbsoluteUrl,
  readIsoTime,
  readRawId,
  readTags,
  reject,
} from './fields.js';
import { type ConvertedDescription, convertDescription } from './html-text.js';
import { assembleProduct } from './record-parts.js';
import type { MapContext, MapOutcome } from './types.js';

const text = z.string().trim().min(1);
const price = z.union([z.string(), z.number().nonnegative()]);

const imageSchema = z.object({
  url: z.string(),
  alt: z.string().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});

const optionSchema = z.object({ name: text, values: z.array(text).min(1) });

const variantSchema = z.object({
  id: z.union([text, z.number()]),
  title: text.optional(),
  url: z.string().optional(),
  options: z.array(z.object({ name: text, value: text })).default([]),
  sku: text.optional(),
  gtin: text.optional(),
  price,
  compare_at_price: price.optional(),
  availability: z.enum(AVAILABILITIES),
  image: z.string().optional(),
  requires_shipping: z.boolean().optional(),
});

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
  price: price.optional(),
  currency: z.string().nullish(),
  availability: z.enum(AVAILABILITIES).optional(),
  shipping: text.optional(),
  purchase_url: z.string().nullish(),
  image_url: z.string().nullish(),
  updated_at: z.string().nullish(),
  tags: z.unknown().optional(),
  brand: text.optional(),
  category: text.optional(),
  images: z.array(imageSchema).optional(),
  options: z.array(optionSchema).optional(),
  variants: z.array(variantSchema).min(1).optional(),
  requires_shipping: z.boolean().optional(),
});

type NativeSource = z.infer<typeof productSchema>;

const CART_OR_CHECKOUT = /\/(?:cart|checkout|checkouts)(?:[/?#]|$)|[?&]add-to-cart=/i;
const LOOKS_LIKE_HTML = /<\/?[a-z][^>]*>|&[a-z]+;|&#\d+;/i;

function readDescription(value: string | null | undefined): ConvertedDescription {
  if (value === null || value === undefined || value.trim() === '') return { text: null };
  return LOOKS_LIKE_HTML.test(value) ? convertDescription(value) : { text: value.trim() };
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

type Checked<T> = { value: T } | { reason: string };

function checkImages(source: NativeSource): Checked<ProductImage[]> {
  const images: ProductImage[] = [];
  for (const [index, image] of (source.images ?? []).entries()) {
    const url = readAbsoluteUrl(image.url);
    if (url === undefined) return { reason: `has images.${index}.url that is not an absolute http(s) URL` };
    images.push({ ...image, url, ...(image.alt?.trim() ? { alt: image.alt.trim() } : {}) });
  }
  const legacy = readAbsoluteUrl(source.image_url);
  if (images.length === 0 && legacy !== undefined) images.push({ url: legacy });
  return { value: images };
}

function checkVariant(
  variant: z.infer<typeof variantSchema>,
  index: number,
  options: readonly ProductOption[],
  digits: number,
): Checked<ProductVariant> {
  const where = `variants.${index}`;
  const price = formatDecimalPrice(String(variant.price), digits);
  if (price === undefined)
    return { reason: `has an unreadable ${where}.price ${JSON.stringify(variant.price)}` };
  const compareAt =
    variant.compare_at_price === undefined
      ? undefined
      : formatDecimalPrice(String(variant.compare_at_price), digits);
  if (variant.compare_at_price !== undefined && compareAt === undefined) {
    return {
      reason: `has an unreadable ${where}.compare_at_price ${JSON.stringify(variant.compare_at_price)}`,
    };
  }
  for (const selected of variant.options) {
    const option = options.find((candidate) => candidate.name === selected.name);
    if (option === undefined || !option.values.includes(selected.value)) {
      return {
        reason: `has ${where}.options naming ${selected.name}: ${selected.value}, which is not among the product's options`,
      };
    }
  }
  const url = variant.url === undefined ? undefined : readAbsoluteUrl(variant.url);
  if (variant.url !== undefined && url === undefined)
    return { reason: `has a ${where}.url that is not an absolute http(s) URL` };
  const image = variant.image === undefined ? undefined : readAbsoluteUrl(variant.image);
  if (variant.image !== undefined && image === undefined)
    return { reason: `has a ${where}.image that is not an absolute http(s) URL` };
  const wasPrice = readCompareAtPrice(price, compareAt);
  return {
    value: {
      id: String(variant.id),
      title:
        variant.title ??
        (variant.options.map((option) => option.value).join(' / ') || `Variant ${index + 1}`),
      ...(url !== undefined ? { url } : {}),
      options: variant.options,
      ...(variant.sku !== undefined ? { sku: variant.sku } : {}),
      ...(variant.gtin !== undefined ? { gtin: variant.gtin } : {}),
      price,
      ...(wasPrice !== undefined ? { compare_at_price: wasPrice } : {}),
      availability: variant.availability,
      ...(image !== undefined ? { image } : {}),
      requires_shipping: variant.requires_shipping ?? true,
    },
  };
}

/** The variants as given (checked, and agreeing with a stated price and availability), or the product as its own one. */
function checkVariants(
  source: NativeSource,
  id: string,
  name: string,
  digits: number,
): Checked<ProductVariant[]> {
  const price = source.price === undefined ? undefined : formatDecimalPrice(String(source.price), digits);
  if (source.price !== undefined && price === undefined) {
    return { reason: `has an unreadable price ${JSON.stringify(source.price)}` };
  }
  if (source.variants === undefined) {
    if (price === undefined) return { reason: 'has no `price` field (and no variants)' };
    if (source.availability === undefined) return { reason: 'has no `availability` field (and no variants)' };
    return {
      value: [
        singleVariantOf({ name, price, availability: source.availability }, id, {
          requires_shipping: source.requires_shipping ?? true,
        }),
      ],
    };
  }
  const options = source.options ?? [];
  const variants: ProductVariant[] = [];
  const ids = new Set<string>();
  for (const [index, raw] of source.variants.entries()) {
    const checked = checkVariant(raw, index, options, digits);
    if ('reason' in checked) return checked;
    if (ids.has(checked.value.id)) return { reason: `has variants.${index}.id ${checked.value.id} twice` };
    ids.add(checked.value.id);
    variants.push(checked.value);
  }
  const summary = summariseVariants(variants);
  if (price !== undefined && price !== summary.price) {
    return {
      reason: `has price ${price}, but its variants make it ${summary.price} (the lowest price among available variants)`,
    };
  }
  if (source.availability !== undefined && source.availability !== summary.availability) {
    return {
      reason: `has availability ${source.availability}, but its variants make it ${summary.availability}`,
    };
  }
  if (source.requires_shipping !== undefined && source.requires_shipping !== summary.requires_shipping) {
    return {
      reason: `has requires_shipping ${source.requires_shipping}, but its variants say ${summary.requires_shipping}`,
    };
  }
  return { value: variants };
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
  if (slug === '') return reject(id, 'has no `slug` field', name);
  if (!isUsableSlug(slug)) return reject(id, describeUnusableSlug('slug', slug), name);
  const currency = source.currency?.trim().toUpperCase() || context.currency;
  if (currency !== context.currency) {
    return reject(id, `is priced in ${currency}, not the merchant currency ${context.currency}`, name);
  }
  const variants = checkVariants(source, id, name, minorDigitsFor(currency));
  if ('reason' in variants) return reject(id, variants.reason, name);
  const images = checkImages(source);
  if ('reason' in images) return reject(id, images.reason, name);
  const links = resolveLinks(source, slug, context.siteUrl);
  if ('reason' in links) return reject(id, links.reason, name);
  const description = readDescription(source.description);
  return {
    ok: true,
    product: assembleProduct(
      {
        name,
        ...(source.flavor ? { flavor: source.flavor } : {}),
        slug,
        url: links.url,
        description: description.text,
        ...(source.packaging ? { packaging: source.packaging } : {}),
        ingredients: source.ingredients ?? null,
        nutrition: source.nutrition ?? null,
        benefits: source.benefits ?? null,
        certifications: source.certifications ?? null,
        currency,
        ...(source.shipping ? { shipping: source.shipping } : {}),
        purchase_url: links.purchaseUrl,
        id,
        ...(source.brand ? { brand: source.brand } : {}),
        ...(source.category ? { category: source.category } : {}),
        tags: readTags(source.tags),
        images: images.value,
        options: source.options ?? [],
        variants: variants.value,
      },
      { updatedAt: readIsoTime(source.updated_at), descriptionMarkdown: description.markdown },
    ),
  };
}
