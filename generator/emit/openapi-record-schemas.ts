/**
 * The component schemas of the record's extensions (Variant, Image, Option, PriceRange,
 * and the extension properties of Product), with the small builders every component
 * schema uses. Each extension is optional, as every seed field is, and carries an
 * example, so a client that knows only the seed's fields can ignore them
 * (docs/spec.md, "Extensions"). `openapi-schemas.ts` assembles them with the seed's.
 */

export type JsonSchema = Readonly<Record<string, unknown>>;

/** A decimal amount as text: no sign, no thousands separators, no leading zeros, up to 4 decimals. */
export const PRICE_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]{1,4})?$';
/** An ISO 4217 alphabetic code. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const text = (description: string): JsonSchema => ({ type: 'string', description });
export const uri = (description: string): JsonSchema => ({ type: 'string', format: 'uri', description });
export const nullableList = (description: string): JsonSchema => ({
  type: ['array', 'null'],
  items: { type: 'string' },
  description,
});

const price = (description: string, example: string): JsonSchema => ({
  ...text(description),
  pattern: PRICE_PATTERN,
  examples: [example],
});
export const AVAILABILITY = ['in_stock', 'out_of_stock', 'coming_soon'];

// The extensions of the record (docs/spec.md, "Extensions"): optional like every field,
// each with an example, so a client that knows only the seed's fields ignores them.
export const image: JsonSchema = {
  type: 'object',
  description: 'A product image (extension). The first is the featured one.',
  properties: {
    url: { ...uri('Absolute image URL.'), examples: ['https://shop.example/images/hoodie-red.jpg'] },
    alt: { ...text('Alternative text, as the store gives it.'), examples: ['Trail Hoodie in red'] },
    width: { type: 'integer', minimum: 1, description: 'Width in pixels, when known.', examples: [800] },
    height: { type: 'integer', minimum: 1, description: 'Height in pixels, when known.', examples: [800] },
  },
};

export const option: JsonSchema = {
  type: 'object',
  description: 'An option the shopper chooses (extension), with its values in the store order.',
  properties: {
    name: { ...text('Option name as the store writes it.'), examples: ['Size'] },
    values: {
      type: 'array',
      items: { type: 'string' },
      description: 'Its values.',
      examples: [['XS', 'S', 'M']],
    },
  },
};

export const priceRange: JsonSchema = {
  type: 'object',
  description: 'Lowest and highest variant price (extension), present only when they differ.',
  properties: {
    min: price('Lowest price over all variants.', '45.00'),
    max: price('Highest price over all variants.', '49.00'),
  },
};

export const variant: JsonSchema = {
  type: 'object',
  description:
    'A purchasable variant (extension): what a checkout takes, by the store variant id. A product sold without variants has one, whose id is the product id.',
  properties: {
    id: { ...text('Store variant id, unique in the catalog.'), examples: ['40123456789'] },
    title: { ...text('Variant title.'), examples: ['XS / Red'] },
    url: {
      ...uri('Page that opens on this variant, when the store has one.'),
      examples: ['https://shop.example/products/hoodie?variant=40123456789'],
    },
    options: {
      type: 'array',
      description: 'Option values that define the variant, in the product option order.',
      items: { type: 'object', properties: { name: text('Option name.'), value: text('Option value.') } },
      examples: [[{ name: 'Size', value: 'XS' }]],
    },
    sku: { ...text('Stock keeping unit, when known.'), examples: ['HD-XS-R'] },
    gtin: {
      ...text('Barcode (GTIN, UPC, EAN, ISBN) as the store gives it, when known.'),
      examples: ['0012345678905'],
    },
    price: price('Price the shopper pays now, decimal text.', '49.00'),
    compare_at_price: price('The "was" price, present only when higher than price.', '59.00'),
    availability: { type: 'string', enum: AVAILABILITY, description: 'Stock state of this variant.' },
    image: {
      ...uri('The variant own image, when it has one.'),
      examples: ['https://shop.example/images/hoodie-navy.jpg'],
    },
    requires_shipping: {
      type: 'boolean',
      description: 'False for a download: nothing is shipped.',
      examples: [true],
    },
  },
};

export const productExtensions: Record<string, JsonSchema> = {
  id: { ...text('Store stable product id (extension).'), examples: ['8012345678'] },
  brand: { ...text('Brand, from the store vendor or the merchant (extension).'), examples: ['Ridgeline'] },
  category: { ...text('Store product type (extension).'), examples: ['Hoodies'] },
  tags: {
    type: 'array',
    items: { type: 'string' },
    description: 'Store tags (extension).',
    examples: [['fleece']],
  },
  images: { type: 'array', items: ref('Image'), description: 'Images, featured first (extension).' },
  options: { type: 'array', items: ref('Option'), description: 'Options the shopper chooses (extension).' },
  variants: {
    type: 'array',
    items: ref('Variant'),
    description: 'Purchasable variants, featured first (extension); price and availability summarise them.',
  },
  price_range: ref('PriceRange'),
  compare_at_price: price(
    'The "was" price of price (extension), present only when every variant is on sale.',
    '59.00',
  ),
  requires_shipping: {
    type: 'boolean',
    description: 'False for a digital product: no variant needs shipping (extension).',
    examples: [false],
  },
};
