/**
 * The component schemas of the API description (spec part 2: Catalog, Merchant,
 * Checkout, Product, Health, Error), written once here as OpenAPI 3.1 Schema Objects,
 * which are JSON Schema 2020-12. `emit/openapi.ts` puts them in `components.schemas`,
 * and `jsonSchemasFromOpenApi` turns any OpenAPI document's components back into one
 * self-contained JSON Schema bundle, which is what the validation gate compiles: the
 * published description is the one source of truth for what the data must look like.
 */

import {
  AVAILABILITY,
  CURRENCY_PATTERN,
  image,
  type JsonSchema,
  nullableList,
  option,
  PRICE_PATTERN,
  priceRange,
  productExtensions,
  ref,
  text,
  uri,
  variant,
} from './openapi-record-schemas.js';

export type { JsonSchema } from './openapi-record-schemas.js';

export const SCHEMA_NAMES = [
  'Catalog',
  'Merchant',
  'Checkout',
  'Product',
  'Variant',
  'Image',
  'Option',
  'PriceRange',
  'Health',
  'Error',
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export { CURRENCY_PATTERN, PRICE_PATTERN } from './openapi-record-schemas.js';

const merchant: JsonSchema = {
  type: 'object',
  description: 'The merchant that publishes the catalog (spec 2.2).',
  properties: {
    name: text('Merchant name.'),
    url: uri('Merchant website.'),
    contact: text('Contact e-mail address or URL.'),
    currency: { ...text('ISO 4217 currency of every price.'), pattern: CURRENCY_PATTERN },
    ships_to: { type: 'array', items: { type: 'string' }, description: 'Countries shipped to.' },
  },
};

const checkout: JsonSchema = {
  type: 'object',
  description: 'How purchases happen (spec 2.3): always by a person on the merchant website.',
  properties: {
    type: { type: 'string', enum: ['redirect'], description: 'Only allowed value: redirect.' },
    note: text('What the customer does to buy.'),
  },
};

// Spec 2.4: "No field is marked required." The generator always writes the identity,
// price and link fields, but the description promises no more than the spec does.
const product: JsonSchema = {
  type: 'object',
  description: 'One product (spec 2.4, then the extensions). No field is required.',
  properties: {
    name: text('Product name.'),
    flavor: text('Flavor as the merchant names it.'),
    slug: text('Stable short identifier.'),
    url: uri('Product page; link to it when citing.'),
    description: { type: ['string', 'null'], description: 'Product description.' },
    packaging: text('Pack size or unit as the merchant states it, e.g. 6 x 12 fl oz bottles or 100 m roll.'),
    ingredients: {
      type: ['array', 'string', 'null'],
      items: { type: 'string' },
      description: 'Ingredients as a list or as the merchant wrote them.',
    },
    nutrition: { type: ['object', 'null'], description: 'Nutrition facts.' },
    benefits: nullableList('Benefits as the merchant states them.'),
    certifications: nullableList('Certifications.'),
    price: {
      ...text(
        'Decimal amount as text, e.g. "12.00": the lowest price among variants in stock (among all when none is).',
      ),
      pattern: PRICE_PATTERN,
    },
    currency: { ...text('ISO 4217 currency code, e.g. "USD".'), pattern: CURRENCY_PATTERN },
    availability: {
      type: 'string',
      enum: AVAILABILITY,
      description:
        'Stock state: in_stock when any variant is, else coming_soon when any is, else out_of_stock.',
    },
    shipping: text('Shipping terms.'),
    purchase_url: uri('Where a person completes the purchase.'),
    ...productExtensions,
  },
};

const catalog: JsonSchema = {
  type: 'object',
  description: 'The whole catalog (spec 2.1); count equals the number of products.',
  required: ['merchant', 'generated', 'count', 'products'],
  properties: {
    merchant: ref('Merchant'),
    generated: { type: 'string', format: 'date-time', description: 'When the catalog was generated.' },
    count: { type: 'integer', minimum: 0, description: 'Number of products.' },
    checkout: ref('Checkout'),
    products: { type: 'array', items: ref('Product'), description: 'Every product.' },
  },
};

const health: JsonSchema = {
  type: 'object',
  description: 'Liveness (spec 2.5); computed without calling upstream services.',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok'], description: 'Only allowed value: ok.' },
    service: text('Service name.'),
    generated: { type: 'string', format: 'date-time', description: 'When the catalog was generated.' },
    cached: { type: 'boolean', description: 'Whether the answer comes from the cached build.' },
    allow_empty: {
      type: 'boolean',
      enum: [true],
      description:
        'Present only when the catalog has no product and the build was told to publish it anyway (--allow-empty).',
    },
  },
};

const error: JsonSchema = {
  type: 'object',
  description: 'Error body of the catalog operation (spec 2.6).',
  required: ['error'],
  properties: { error: text('What went wrong.') },
};

/** `components.schemas` of the API description, in the spec's order. */
export function buildComponentSchemas(): Record<SchemaName, JsonSchema> {
  return {
    Catalog: catalog,
    Merchant: merchant,
    Checkout: checkout,
    Product: product,
    Variant: variant,
    Image: image,
    Option: option,
    PriceRange: priceRange,
    Health: health,
    Error: error,
  };
}

const COMPONENT_REF = /^#\/components\/schemas\/([A-Za-z0-9._-]+)$/;

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const match = key === '$ref' && typeof child === 'string' ? COMPONENT_REF.exec(child) : null;
    out[key] = match ? `#/$defs/${match[1]}` : rewriteRefs(child);
  }
  return out;
}

export const SCHEMA_BUNDLE_ID = 'urn:agent-catalog:openapi-components';

/**
 * The component schemas of an OpenAPI 3.1 document as one JSON Schema 2020-12 bundle
 * (`$defs`, with `#/components/schemas/X` references rewritten to `#/$defs/X`), or
 * undefined when the document has no `components.schemas` object.
 */
export function jsonSchemasFromOpenApi(document: unknown): JsonSchema | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const components = (document as { components?: unknown }).components;
  if (typeof components !== 'object' || components === null) return undefined;
  const schemas = (components as { schemas?: unknown }).schemas;
  if (typeof schemas !== 'object' || schemas === null || Array.isArray(schemas)) return undefined;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_BUNDLE_ID,
    $defs: rewriteRefs(schemas),
  };
}
