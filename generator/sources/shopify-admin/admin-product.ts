/**
 * An Admin API product (a bulk export's product line and its child lines) in the shape of a
 * storefront `/products.json` product, so one mapper (`normalise/shopify.ts`) turns both
 * sources into the same record: numeric ids as the storefront shows them (what its cart and
 * `?variant=` links take), `body_html`, `options` with their values, variants with
 * `option1..3`, `available`, `compare_at_price`, `requires_shipping` and the variant's
 * image, and the product's images. Pure.
 *
 * Only what a shopper can see is published: a product that is ACTIVE and published to the
 * online store (`onlineStoreUrl` set). Drafts, archived and UNLISTED products, and active
 * ones missing from the online store, are left out without a warning: they are not errors,
 * they are not for sale there.
 */

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `gid://shopify/ProductVariant/123` → `123`: the id the storefront and its links use. */
export function readLegacyId(gid: unknown): string | undefined {
  if (typeof gid !== 'string') return undefined;
  const match = /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)(?:\?.*)?$/.exec(gid);
  return match?.[1];
}

function gidType(gid: unknown): string | undefined {
  return typeof gid === 'string' ? /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(gid)?.[1] : undefined;
}

export function isVisibleToShoppers(product: Fields): boolean {
  return (
    product.status === 'ACTIVE' && typeof product.onlineStoreUrl === 'string' && product.onlineStoreUrl !== ''
  );
}

function readOptions(product: Fields): { name: string; values: string[] }[] {
  const options = Array.isArray(product.options) ? product.options.filter(isRecord) : [];
  return options.flatMap((option) => {
    if (typeof option.name !== 'string') return [];
    const values = Array.isArray(option.optionValues) ? option.optionValues.filter(isRecord) : [];
    return [
      {
        name: option.name,
        values: values.flatMap((value) => (typeof value.name === 'string' ? [value.name] : [])),
      },
    ];
  });
}

function readImage(image: unknown, id?: string): Fields | undefined {
  if (!isRecord(image) || typeof image.url !== 'string') return undefined;
  return {
    ...(id !== undefined ? { id } : {}),
    src: image.url,
    ...(typeof image.altText === 'string' ? { alt: image.altText } : {}),
    ...(typeof image.width === 'number' ? { width: image.width } : {}),
    ...(typeof image.height === 'number' ? { height: image.height } : {}),
  };
}

/** `selectedOptions` by name, in the product's option order (the storefront's option1..3). */
function readOptionSlots(variant: Fields, optionNames: readonly string[]): Fields {
  const selected = Array.isArray(variant.selectedOptions) ? variant.selectedOptions.filter(isRecord) : [];
  const slots: Fields = {};
  optionNames.slice(0, 3).forEach((name, index) => {
    const value = selected.find((option) => option.name === name)?.value;
    if (typeof value === 'string') slots[`option${index + 1}`] = value;
  });
  return slots;
}

function toStorefrontVariant(variant: Fields, optionNames: readonly string[]): Fields {
  const inventory = isRecord(variant.inventoryItem) ? variant.inventoryItem : {};
  const image = readImage(variant.image);
  return {
    id: readLegacyId(variant.id) ?? variant.id,
    title: variant.title,
    price: variant.price,
    compare_at_price: variant.compareAtPrice ?? null,
    sku: variant.sku ?? null,
    barcode: variant.barcode ?? null,
    ...(typeof variant.availableForSale === 'boolean' ? { available: variant.availableForSale } : {}),
    ...(typeof inventory.requiresShipping === 'boolean'
      ? { requires_shipping: inventory.requiresShipping }
      : {}),
    ...(image !== undefined ? { featured_image: image } : {}),
    ...readOptionSlots(variant, optionNames),
  };
}

/** The storefront-shaped product, or undefined when shoppers cannot see it. */
export function toStorefrontProduct(product: Fields, children: readonly Fields[]): Fields | undefined {
  if (!isVisibleToShoppers(product)) return undefined;
  const options = readOptions(product);
  const optionNames = options.map((option) => option.name);
  const variants = children.filter((child) => gidType(child.id) === 'ProductVariant');
  const images = children.flatMap((child) => {
    const image =
      gidType(child.id) === 'MediaImage' ? readImage(child.image, readLegacyId(child.id)) : undefined;
    return image === undefined ? [] : [image];
  });
  return {
    id: readLegacyId(product.id) ?? product.id,
    title: product.title,
    handle: product.handle,
    body_html: product.descriptionHtml ?? null,
    vendor: product.vendor,
    product_type: product.productType,
    tags: product.tags,
    updated_at: product.updatedAt ?? null,
    options,
    images,
    variants: variants.map((variant) => toStorefrontVariant(variant, optionNames)),
  };
}
