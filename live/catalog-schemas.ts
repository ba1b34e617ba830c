/**
 * The catalog operations' arguments and answers as zod schemas, mirroring UCP's
 * `catalog_search.json` and `catalog_lookup.json` (release 2026-04-08). One source for
 * both doors: the MCP SDK turns them into each tool's `inputSchema`/`outputSchema` and
 * validates with them; the REST routes validate the same `catalog` objects with them.
 * The bounds are ours (UCP lets a business set them): they keep one request cheap.
 */
import { z } from 'zod';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_LOOKUP_IDS = 50;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 50;
const MAX_ID_LENGTH = 256;

const amount = z.number().int().min(0).describe('Amount in ISO 4217 minor units.');
const open = z.looseObject({});

const filters = z
  .looseObject({
    categories: z
      .array(z.string().max(200))
      .max(50)
      .optional()
      .describe(
        'Any of these product categories (case-insensitive), as product `categories[].value` shows them.',
      ),
    price: z
      .object({ min: amount.optional(), max: amount.optional() })
      .optional()
      .describe(
        "Price range in minor units of the catalog's currency: a product matches when one variant is within.",
      ),
    available: z
      .boolean()
      .optional()
      .describe(
        'true: only products with a variant that can be bought now (within the price range, when one is given).',
      ),
  })
  .describe('Filter criteria; all combine with AND.');

/** UCP's request metadata: optional here, the public catalog answers without a profile. */
const meta = z
  .looseObject({ 'ucp-agent': z.looseObject({ profile: z.string().max(2048).optional() }).optional() })
  .optional();

export const searchRequestSchema = z.looseObject({
  query: z.string().max(MAX_QUERY_LENGTH).optional().describe('Free-text search query.'),
  context: open.optional(),
  signals: open.optional(),
  attribution: open.optional(),
  filters: filters.optional(),
  pagination: z
    .object({
      cursor: z.string().max(500).optional().describe('Opaque cursor from the previous response.'),
      limit: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(`Page size, default ${DEFAULT_PAGE_SIZE}; larger values are clamped to ${MAX_PAGE_SIZE}.`),
    })
    .optional(),
});

export const lookupRequestSchema = z.looseObject({
  ids: z
    .array(z.string().min(1).max(MAX_ID_LENGTH))
    .min(1)
    .describe(`Product or variant ids, at most ${MAX_LOOKUP_IDS}.`),
  filters: filters.optional(),
  context: open.optional(),
  signals: open.optional(),
  attribution: open.optional(),
});

export const getProductRequestSchema = z.looseObject({
  id: z.string().min(1).max(MAX_ID_LENGTH).describe('Product or variant id.'),
  selected: z
    .array(z.looseObject({ name: z.string(), label: z.string() }))
    .max(50)
    .optional(),
  preferences: z.array(z.string()).max(50).optional(),
  filters: filters.optional(),
  context: open.optional(),
  signals: open.optional(),
  attribution: open.optional(),
});

export type SearchRequest = z.infer<typeof searchRequestSchema>;
export type LookupRequest = z.infer<typeof lookupRequestSchema>;
export type GetProductRequest = z.infer<typeof getProductRequestSchema>;

/**
 * The MCP tools' arguments: UCP's `{meta, catalog}` and nothing else. Strict, because a
 * request's fields placed beside `catalog` instead of inside it (`{"query": "ginger"}`, the
 * REST body's shape) would otherwise be dropped and search would answer with everything;
 * refused, the model reads the tool error and puts them where they belong.
 */
function toolArguments<Catalog extends z.ZodType>(catalog: Catalog, fields: readonly string[]) {
  return z.strictObject(
    { meta, catalog },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown argument ${issue.keys.map((key) => JSON.stringify(key.slice(0, 80))).join(', ')}: the tool takes {"meta": {…}, "catalog": {…}}, and the request's fields (${fields.join(', ')}) go inside "catalog"`
          : undefined,
    },
  );
}

export const fieldsOf = (schema: z.ZodObject): string[] => Object.keys(schema.shape);
// `catalog` is required for every tool, search included: UCP 2026-04-08's mcp.openrpc.json
// lists it under each method's `required`, and its conformance section has tool inputs
// validated against UCP's schemas. An empty `{}` still searches everything.
export const searchToolInput = toolArguments(searchRequestSchema, fieldsOf(searchRequestSchema));
export const lookupToolInput = toolArguments(lookupRequestSchema, fieldsOf(lookupRequestSchema));
export const getProductToolInput = toolArguments(getProductRequestSchema, fieldsOf(getProductRequestSchema));

const price = z.object({ amount, currency: z.string().regex(/^[A-Z]{3}$/) });
const priceRange = z.object({ min: price, max: price });
const description = z.looseObject({ plain: z.string() });
const variant = z.looseObject({
  id: z.string(),
  title: z.string(),
  description,
  price,
  list_price: price.optional(),
  availability: z.object({ available: z.boolean(), status: z.string() }).optional(),
  options: z.array(z.object({ name: z.string(), label: z.string() })).optional(),
  inputs: z.array(z.object({ id: z.string(), match: z.string() })).optional(),
});
const product = z.looseObject({
  id: z.string(),
  handle: z.string().optional(),
  title: z.string(),
  description,
  url: z.string().optional(),
  price_range: priceRange,
  variants: z.array(variant).min(1),
});
const ucp = z.looseObject({
  version: z.string(),
  status: z.enum(['success', 'error']).optional(),
  capabilities: z.record(z.string(), z.array(z.looseObject({ version: z.string() }))).optional(),
});
const messages = z
  .array(
    z.looseObject({
      type: z.enum(['info', 'warning', 'error']),
      code: z.string().optional(),
      content: z.string(),
    }),
  )
  .optional();

export const searchResponseSchema = z.object({
  ucp,
  products: z.array(product),
  pagination: z
    .object({
      cursor: z.string().optional(),
      has_next_page: z.boolean(),
      total_count: z.number().int().min(0).optional(),
    })
    .optional(),
  messages,
});
export const lookupResponseSchema = z.object({ ucp, products: z.array(product), messages });
/** `product` is absent only in UCP's error envelope (`ucp.status: "error"`, a `not_found` message). */
export const getProductResponseSchema = z.object({ ucp, product: product.optional(), messages });
