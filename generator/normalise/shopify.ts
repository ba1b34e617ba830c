/**
 * Maps one product of a Shopify storefront `/products.json` page (or an Admin API
 * `products.json` answer, which shares the shape) to the canonical record. Rules
 * (docs/content.md, "How each adapter maps a product", repeats them): name = title;
 * slug = handle (decoded when percent-encoded; record/slug.ts says which are usable); url
 * and purchase_url = `{storefront_url}/products/{handle}` (the store, default
 * merchant.url, never the bundle's own host), the page where a person buys (never a cart
 * or checkout link); id = the product id; brand = vendor; category = product_type;
 * tags; images (src, alt, width, height) in the store's order; options (name, values);
 * one variant per store variant: its id (what a checkout takes), title, option1..3 named
 * by the product's options, sku, barcode as gtin, price, compare_at_price only when
 * higher, availability (`available`; on the Admin API, which has no `available`, a
 * tracked variant that may not oversell and has none left is out of stock), its image
 * (`featured_image`, or `image_id` among the images) and `requires_shipping`. The
 * coming-soon tag marks every variant coming_soon. Shopify's lone "Title: Default Title"
 * option is no option at all. The summary fields (price, availability, price range, sale
 * price, shipping need) follow from the variants by `record/summarise-variants.ts`.
 */
import { z } from 'zod';
import { formatDecimalPrice, minorDigitsFor } from '../../record/decimal-price.js';
import type {
  Availability,
  ProductImage,
  ProductOption,
  ProductVariant,
} from '../../record/product-record.js';
import { readCompareAtPrice } from '../../record/summarise-variants.js';
import {
  buildProductUrl,
  decodeSlug,
  describeSchemaIssue,
  describeUnusableSlug,
  hasTag,
  isUsableSlug,
  readIsoTime,
  readRawId,
  readTags,
  reject,
} from './fields.js';
import { convertDescription } from './html-text.js';
import {
  assembleProduct,
  cleanOptions,
  readImage,
  readText,
  selectOptions,
  storeProductFields,
} from './record-parts.js';
import type { MapContext, MapOutcome } from './types.js';

const id = z.union([z.number(), z.string().min(1)]);
const optionalText = z.string().nullish().catch(undefined);

const variantSchema = z.object({
  id: id.optional(),
  title: z.string().nullish(),
  price: z.union([z.string(), z.number()]),
  compare_at_price: z.union([z.string(), z.number()]).nullish().catch(undefined),
  // The Admin API has no `available`, and some stores' apps write it as text or null; any
  // of these is valid upstream data, never a reason to lose the product
  // (`readVariantAvailability`).
  available: z.unknown().optional(),
  inventory_quantity: z.number().nullish().catch(undefined),
  inventory_policy: optionalText,
  inventory_management: optionalText,
  option1: optionalText,
  option2: optionalText,
  option3: optionalText,
  sku: optionalText,
  barcode: optionalText,
  requires_shipping: z.boolean().nullish().catch(undefined),
  featured_image: z.unknown().optional(),
  image_id: id.nullish().catch(undefined),
});

const optionSchema = z.object({
  name: z.string(),
  values: z.array(z.union([z.string(), z.number()]).transform(String)).catch([]),
});

const productSchema = z.object({
  id,
  title: z.string().nullish(),
  handle: z.string().nullish(),
  body_html: z.string().nullish(),
  updated_at: z.string().nullish(),
  vendor: z.unknown().optional(),
  product_type: z.unknown().optional(),
  tags: z.unknown().optional(),
  variants: z.array(variantSchema).nullish(),
  // Images and options are extras: a malformed one is dropped, not a reason to lose the product.
  images: z.array(z.unknown()).nullish(),
  image: z.unknown().optional(),
  options: z.array(z.unknown()).nullish(),
});

type ShopifyVariant = z.infer<typeof variantSchema>;

/** Shopify's placeholder for a product without options: one "Title" option valued "Default Title". */
function readOptions(list: readonly unknown[] | null | undefined): ProductOption[] {
  const parsed = (list ?? []).flatMap((raw) => {
    const option = optionSchema.safeParse(raw);
    return option.success ? [option.data] : [];
  });
  const options = cleanOptions(parsed);
  const [only] = options;
  if (options.length === 1 && only?.values.length === 1 && only.values[0] === 'Default Title') return [];
  return options;
}

/** `available` as the store states it: a boolean, or the same written as text; else unstated. */
function readAvailableFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/**
 * A variant's availability: its `available` flag when it states one; otherwise (the Admin
 * API, or a null, missing or unreadable flag) the inventory rule: a tracked variant that
 * may not oversell and has none left is out of stock. Each variant is read on its own, so
 * variants of one product that state it differently are each read right.
 */
function readVariantAvailability(variant: ShopifyVariant): Availability {
  const available = readAvailableFlag(variant.available);
  if (available !== undefined) return available ? 'in_stock' : 'out_of_stock';
  const tracked = variant.inventory_management === 'shopify' && variant.inventory_policy === 'deny';
  return tracked && (variant.inventory_quantity ?? 0) <= 0 ? 'out_of_stock' : 'in_stock';
}

function readVariantImage(
  variant: ShopifyVariant,
  imagesById: ReadonlyMap<string, ProductImage>,
): string | undefined {
  const featured = readImage(variant.featured_image);
  if (featured !== undefined) return featured.url;
  return variant.image_id == null ? undefined : imagesById.get(String(variant.image_id))?.url;
}

interface VariantContext {
  productId: string;
  productName: string;
  url: string;
  digits: number;
  comingSoon: boolean;
  options: readonly ProductOption[];
  imagesById: ReadonlyMap<string, ProductImage>;
  single: boolean;
}

function mapVariant(
  variant: ShopifyVariant,
  index: number,
  context: VariantContext,
): { variant: ProductVariant } | { reason: string } {
  const label = variant.id ?? index + 1;
  const price = formatDecimalPrice(String(variant.price), context.digits);
  if (price === undefined) {
    return { reason: `variant ${label} has an unreadable price ${JSON.stringify(variant.price)}` };
  }
  if (variant.id === undefined && !context.single) return { reason: `variant ${label} has no id` };
  const variantId = variant.id === undefined ? context.productId : String(variant.id);
  const compareAt =
    variant.compare_at_price == null
      ? undefined
      : formatDecimalPrice(String(variant.compare_at_price), context.digits);
  const wasPrice = readCompareAtPrice(price, compareAt);
  const options = selectOptions(context.options, [variant.option1, variant.option2, variant.option3]);
  const title = variant.title?.trim();
  const sku = variant.sku?.trim();
  const gtin = variant.barcode?.trim();
  const image = readVariantImage(variant, context.imagesById);
  return {
    variant: {
      id: variantId,
      title: title && title !== 'Default Title' ? title : context.productName,
      ...(variant.id !== undefined ? { url: `${context.url}?variant=${encodeURIComponent(variantId)}` } : {}),
      options,
      ...(sku ? { sku } : {}),
      ...(gtin ? { gtin } : {}),
      price,
      ...(wasPrice !== undefined ? { compare_at_price: wasPrice } : {}),
      availability: context.comingSoon ? 'coming_soon' : readVariantAvailability(variant),
      ...(image !== undefined ? { image } : {}),
      requires_shipping: variant.requires_shipping !== false,
    },
  };
}

/** The product's images in the store's order, each URL once, and each by its Shopify id (for `image_id`). */
function readShopifyImages(rawImages: readonly unknown[]): {
  images: ProductImage[];
  byId: Map<string, ProductImage>;
} {
  const images: ProductImage[] = [];
  const byUrl = new Map<string, ProductImage>();
  const byId = new Map<string, ProductImage>();
  for (const raw of rawImages) {
    const image = readImage(raw);
    if (image === undefined) continue;
    const known = byUrl.get(image.url) ?? image;
    if (known === image) {
      byUrl.set(image.url, image);
      images.push(image);
    }
    const imageId = (raw as { id?: unknown }).id;
    if (typeof imageId === 'number' || typeof imageId === 'string') byId.set(String(imageId), known);
  }
  return { images, byId };
}

export function mapShopifyProduct(raw: unknown, context: MapContext): MapOutcome {
  const parsed = productSchema.safeParse(raw);
  if (!parsed.success) return reject(readRawId(raw), describeSchemaIssue(parsed.error));
  const source = parsed.data;
  const productId = String(source.id);
  const name = source.title?.trim() ?? '';
  if (name === '') return reject(productId, 'has no title');
  if (source.handle == null || source.handle.trim() === '')
    return reject(productId, 'has no `handle` field', name);
  const slug = decodeSlug(source.handle.trim());
  if (!isUsableSlug(slug)) return reject(productId, describeUnusableSlug('handle', slug), name);
  const rawVariants = source.variants ?? [];
  if (rawVariants.length === 0) return reject(productId, 'has no variants, so no price', name);
  const tags = readTags(source.tags);
  const url = buildProductUrl(context.siteUrl, slug);
  const rawImages = source.images ?? (source.image === undefined ? [] : [source.image]);
  const { images, byId } = readShopifyImages(rawImages);
  const options = readOptions(source.options);
  const variantContext: VariantContext = {
    productId,
    productName: name,
    url,
    digits: minorDigitsFor(context.currency),
    comingSoon: hasTag(tags, context.comingSoonTag),
    options,
    imagesById: byId,
    single: rawVariants.length === 1,
  };
  const variants: ProductVariant[] = [];
  for (const [index, rawVariant] of rawVariants.entries()) {
    const mapped = mapVariant(rawVariant, index, variantContext);
    if ('reason' in mapped) return reject(productId, mapped.reason, name);
    variants.push(mapped.variant);
  }
  const description = convertDescription(source.body_html);
  const brand = readText(source.vendor);
  const category = readText(source.product_type);
  return {
    ok: true,
    product: assembleProduct(
      {
        ...storeProductFields({ name, slug, url, currency: context.currency, options, brand, category }),
        description: description.text,
        id: productId,
        tags,
        images,
        options,
        variants,
      },
      { updatedAt: readIsoTime(source.updated_at), descriptionMarkdown: description.markdown },
    ),
  };
}
