/**
 * The data the documentation page template renders, computed from the API description
 * (the same object published as `/api/openapi.json`) and the real build: operations with
 * curl examples and example responses cut from the catalog, one fields table per
 * component schema, the usage rules and the account access. The template only formats
 * what this module hands it, so every fact on the page comes from one place.
 */
import type { BuildPlan } from '../plan.js';
import { firstProducts } from '../product-store/planned-products.js';
import {
  type CatalogFields,
  describeCatalogFacts,
  describeCatalogFields,
  SEED_FACETS,
} from './catalog-fields.js';
import type { OpenApiDocument } from './openapi.js';
import { type AccountAccess, describeAccountAccess } from './openapi-policy.js';
import { SCHEMA_NAMES } from './openapi-schemas.js';
import { FEED_PATH, KB_PRODUCTS_PATH, LLMS_PATH, OPENAPI_PATH, siteUrl } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';
import { WELL_KNOWN_DOCUMENTS } from './well-known.js';

/** How many products the example response shows; the rest of the real catalog is left out. */
const EXAMPLE_PRODUCTS = 2;

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

export interface SchemaView {
  name: string;
  anchor: string;
  description: string;
  fields: FieldRow[];
}

export interface ResponseView {
  status: string;
  description: string;
  schema: string;
  schemaAnchor: string;
  example?: string;
}

export interface TextPart {
  text: string;
  code: boolean;
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  url: string;
  summary: string;
  /** The description with its Markdown code spans split out, so the template can mark them up. */
  descriptionParts: TextPart[];
  curl: string;
  responses: ResponseView[];
}

export interface DocsView {
  title: string;
  merchant: string;
  summary: string;
  /** The facts this merchant's products carry, as a phrase ("price, availability and images"). */
  catalogFacts: string;
  version: string;
  openapiVersion: string;
  baseUrl: string;
  siteUrl: string;
  generated: string;
  productCount: number;
  operations: OperationView[];
  schemas: SchemaView[];
  rules: string[];
  requestsPerMinute: number;
  termsUrl: string;
  access: AccountAccess;
  discovery: { label: string; url: string }[];
  contact: string;
}

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refName(value: unknown): string | undefined {
  const ref = isJson(value) ? value.$ref : undefined;
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
}

/** A schema's type in words: `string (uri)`, `array of Product`, `string | null`. */
export function describeType(schema: unknown): string {
  const named = refName(schema);
  if (named !== undefined) return named;
  if (!isJson(schema)) return 'any';
  const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type ?? 'any')];
  const items = refName(schema.items) ?? (isJson(schema.items) ? String(schema.items.type) : undefined);
  const words = types.map((type) => (type === 'array' && items ? `array of ${items}` : type));
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return `${words.join(' | ')}${format}`;
}

function describeNotes(schema: unknown): string {
  if (!isJson(schema)) return '';
  const notes = [typeof schema.description === 'string' ? schema.description : ''];
  if (Array.isArray(schema.enum)) notes.push(`One of: ${schema.enum.join(', ')}.`);
  if (typeof schema.pattern === 'string') notes.push(`Pattern: ${schema.pattern}`);
  // A URL example would name a host that is not the merchant's: the page links no third party.
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && schema.format !== 'uri')
    notes.push(`Example: ${JSON.stringify(schema.examples[0])}`);
  return notes.filter((note) => note !== '').join(' ');
}

/** "Returns `count` items" → text, code, text: the one Markdown construct the descriptions use. */
export function splitCodeSpans(text: string): TextPart[] {
  return text
    .split('`')
    .map((part, index) => ({ text: part, code: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}

// The page lists the seed's optional fields (SEED_FACETS) only when some product carries one.

/** Whether the page's fields table shows this field: every field but a seed facet no product carries. */
function showsField(schema: string, field: string, fields: CatalogFields): boolean {
  const facet = SEED_FACETS.find((name) => name === field);
  return schema !== 'Product' || facet === undefined || fields[facet];
}

function buildSchemaViews(document: OpenApiDocument, fields: CatalogFields): SchemaView[] {
  const components = isJson(document.components) ? document.components : {};
  const schemas = isJson(components.schemas) ? components.schemas : {};
  return SCHEMA_NAMES.map((name) => {
    const schema = isJson(schemas[name]) ? schemas[name] : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const properties = isJson(schema.properties) ? schema.properties : {};
    return {
      name,
      anchor: `schema-${name.toLowerCase()}`,
      description: typeof schema.description === 'string' ? schema.description : '',
      fields: Object.entries(properties)
        .filter(([field]) => showsField(name, field, fields))
        .map(([field, property]) => ({
          name: field,
          type: describeType(property),
          required: required.includes(field),
          notes: describeNotes(property),
        })),
    };
  });
}

function exampleCatalog(plan: BuildPlan): string {
  const examples = firstProducts(plan.products, EXAMPLE_PRODUCTS).map((product) => product.record);
  const trimmed = { ...plan.catalog, products: examples };
  return JSON.stringify(trimmed, null, 2);
}

function examplesFor(plan: BuildPlan): Record<string, string> {
  return {
    Catalog: exampleCatalog(plan),
    Health: JSON.stringify(plan.health, null, 2),
    Error: JSON.stringify({ error: 'upstream catalog error' }, null, 2),
  };
}

function buildOperationViews(document: OpenApiDocument, plan: BuildPlan): OperationView[] {
  const baseUrl = plan.config.base_url;
  const paths = isJson(document.paths) ? document.paths : {};
  const examples = examplesFor(plan);
  return Object.entries(paths).flatMap(([path, item]) => {
    const operation = isJson(item) && isJson(item.get) ? item.get : undefined;
    if (operation === undefined) return [];
    const responses = isJson(operation.responses) ? operation.responses : {};
    return [
      {
        id: String(operation.operationId),
        method: 'GET',
        path,
        url: `${baseUrl}${path}`,
        summary: String(operation.summary ?? ''),
        descriptionParts: splitCodeSpans(String(operation.description ?? '')),
        curl: `curl -s -H 'Accept: application/json' '${baseUrl}${path}'`,
        responses: Object.entries(responses).map(([status, response]) => {
          const content = isJson(response) && isJson(response.content) ? response.content : {};
          const media = isJson(content['application/json']) ? content['application/json'] : {};
          const schema = refName(media.schema) ?? 'any';
          return {
            status,
            description: isJson(response) ? String(response.description ?? '') : '',
            schema,
            schemaAnchor: `schema-${schema.toLowerCase()}`,
            ...(examples[schema] ? { example: examples[schema] } : {}),
          };
        }),
      },
    ];
  });
}

export function buildDocsView(document: OpenApiDocument, plan: BuildPlan): DocsView {
  const { config } = plan;
  const info = isJson(document.info) ? document.info : {};
  const policy = resolveUsagePolicy(config);
  const access = describeAccountAccess(config);
  const catalogFields = describeCatalogFields(plan);
  return {
    title: String(info.title ?? `${config.merchant.name} Catalog API`),
    merchant: config.merchant.name,
    summary: config.merchant.description ?? String(info.summary ?? ''),
    catalogFacts: describeCatalogFacts(catalogFields),
    version: String(info.version ?? ''),
    openapiVersion: String(document.openapi ?? ''),
    baseUrl: config.base_url,
    siteUrl: config.site_url,
    generated: plan.generated,
    productCount: plan.catalog.count,
    operations: buildOperationViews(document, plan),
    schemas: buildSchemaViews(document, catalogFields),
    rules: policy.rules.map((rule) => rule.text),
    requestsPerMinute: policy.requestsPerMinute,
    termsUrl: policy.termsUrl,
    access,
    discovery: [
      { label: 'API description (OpenAPI 3.1)', url: siteUrl(config, OPENAPI_PATH) },
      { label: 'API catalog (RFC 9727)', url: siteUrl(config, WELL_KNOWN_DOCUMENTS.apiCatalog.publicPath) },
      { label: 'Protected resource metadata (RFC 9728)', url: access.protectedResourceMetadataUrl },
      // The A2A card exists only where the live handler serves its endpoint.
      ...(config.live.enabled
        ? [{ label: 'Agent card (A2A)', url: siteUrl(config, `/${WELL_KNOWN_DOCUMENTS.agentCard.path}`) }]
        : []),
      { label: 'Knowledge base products', url: siteUrl(config, KB_PRODUCTS_PATH) },
      { label: 'Product feed', url: siteUrl(config, FEED_PATH) },
      { label: 'Usage guide for language models', url: siteUrl(config, LLMS_PATH) },
    ],
    contact: config.merchant.contact,
  };
}
