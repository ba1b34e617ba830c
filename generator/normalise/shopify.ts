/**
 * Maps one product of a Shopify storefront `/products.json` page to the spec's Product.
 * Rules (docs/content.md, "How each adapter maps a product", repeats them): name = title;
 * slug = handle; url and purchase_url = `{storefront_url}/products/{handle}` (the store,
 * default merchant.url, never the bundle's own host), the page where a person buys (never a
 * cart or checkout link); price = the lowest price among available variants, or among all
 * variants when none is available, as decimal text with the currency's minor digits;
 * availability = coming_soon when tagged with the coming-soon tag, out_of_stock when no
 * variant is available, else in_stock; description = body_html as clean text; image = first
 * image.
 */
import { z } from 'zod';
import { compareDecimal, formatDecimalPrice, minorDigitsFor } from '../../record/decimal-price.js';
import type { Availability, Product } from '../model.js';
import {
  buildProductUrl,
  describeSchemaIssue,
  hasTag,
  isUsableSlug,
  readAbsoluteUrl,
  readImageSource,
  readIsoTime,
  readRawId,
  readTags,
  reject,
} from './fields.js';
import { convertHtmlToText } from './html-text.js';
import type { MapContext, MapOutcome } from './types.js';

const variantSchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  title: z.string().nullish(),
  price: z.union([z.string(), z.number()]),
  // The Admin API has no `available`; a variant it lists is taken as available.
  available: z.boolean().nullish(),
});

const productSchema = z.object({
  id: z.union([z.number(), z.string().min(1)]),
  title: z.string().nullish(),
  handle: z.string().nullish(),
  body_html: z.string().nullish(),
  updated_at: z.string().nullish(),
  tags: z.unknown().optional(),
  variants: z.array(variantSchema).nullish(),
  // Images are optional extras: a malformed one is dropped, not a reason to lose the product.
  images: z.array(z.unknown()).nullish(),
  image: z.unknown().optional(),
});

type ShopifyVariant = z.infer<typeof variantSchema>;

/** The price of the product per the rule above, or the reason it has none. */
function pickPrice(variants: ShopifyVariant[], digits: number): { price: string } | { reason: string } {
  const priced: { price: string; available: boolean }[] = [];
  for (const [index, variant] of variants.entries()) {
    const price = formatDecimalPrice(String(variant.price), digits);
    if (price === undefined) {
      return {
        reason: `variant ${variant.id ?? index + 1} has an unreadable price ${JSON.stringify(variant.price)}`,
      };
    }
    priced.push({ price, available: variant.available !== false });
  }
  const available = priced.filter((variant) => variant.available);
  const pool = available.length > 0 ? available : priced;
  const lowest = pool.map((variant) => variant.price).sort(compareDecimal)[0];
  return lowest === undefined ? { reason: 'has no variants, so no price' } : { price: lowest };
}

function decideAvailability(tags: string[], variants: ShopifyVariant[], comingSoonTag: string): Availability {
  if (hasTag(tags, comingSoonTag)) return 'coming_soon';
  return variants.some((variant) => variant.available !== false) ? 'in_stock' : 'out_of_stock';
}

export function mapShopifyProduct(raw: unknown, context: MapContext): MapOutcome {
  const parsed = productSchema.safeParse(raw);
  if (!parsed.success) return reject(readRawId(raw), describeSchemaIssue(parsed.error));
  const source = parsed.data;
  const id = String(source.id);
  const name = source.title?.trim() ?? '';
  if (name === '') return reject(id, 'has no title');
  const slug = source.handle?.trim() ?? '';
  if (!isUsableSlug(slug)) return reject(id, `has an unusable handle ${JSON.stringify(slug)}`, name);
  const variants = source.variants ?? [];
  if (variants.length === 0) return reject(id, 'has no variants, so no price', name);
  const picked = pickPrice(variants, minorDigitsFor(context.currency));
  if ('reason' in picked) return reject(id, picked.reason, name);
  const tags = readTags(source.tags);
  const url = buildProductUrl(context.siteUrl, slug);
  const record: Product = {
    name,
    slug,
    url,
    description: convertHtmlToText(source.body_html),
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    price: picked.price,
    currency: context.currency,
    availability: decideAvailability(tags, variants, context.comingSoonTag),
    purchase_url: url,
  };
  const imageUrl = readAbsoluteUrl(readImageSource(source.images?.[0] ?? source.image));
  const updatedAt = readIsoTime(source.updated_at);
  return {
    ok: true,
    product: {
      sourceId: id,
      record,
      tags,
      ...(imageUrl ? { imageUrl } : {}),
      ...(updatedAt ? { updatedAt } : {}),
    },
  };
}
