import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { buildAuthorizationServerMetadata } from '../../../auth-server/metadata.js';
import { buildOpenApiDocument, emitOpenApi } from '../../../generator/emit/openapi.js';
import { jsonSchemasFromOpenApi } from '../../../generator/emit/openapi-schemas.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { validateAgainst } from '../../../generator/validate/schemas.js';
import {
  catalogOf,
  makeSampleConfig,
  makeSamplePlan,
  makeVariedPlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';

type Json = Record<string, unknown>;

function asJson(value: unknown): Json {
  if (typeof value !== 'object' || value === null) throw new TypeError('expected an object');
  return value as Json;
}

function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((current, key) => asJson(current)[key], value);
}

function sampleCatalog(): Json {
  return structuredClone(catalogOf(makeSamplePlan())) as unknown as Json;
}

function productOf(catalog: Json, index = 0): Json {
  const products = catalog.products;
  if (!Array.isArray(products)) throw new TypeError('no products');
  return asJson(products[index]);
}

describe('the API description', () => {
  const plan = makeSamplePlan();
  const [artifact] = emitOpenApi(plan);
  const document = asJson(JSON.parse(artifact?.body ?? 'null'));

  test('is published at api/openapi.json as JSON', () => {
    expect(artifact?.path).toBe('api/openapi.json');
    expect(artifact?.mediaType).toBe('application/json');
    expect(artifact?.publicPath).toBeUndefined();
  });

  test('validates as OpenAPI 3.1 with an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('declares OpenAPI 3.1.0 and API version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(at(document, 'info', 'version')).toBe('1.0.0');
  });

  test('has getCatalog and getHealth at the catalog paths with their responses, needing no auth', () => {
    const catalog = asJson(at(document, 'paths', '/agent-catalog', 'get'));
    const health = asJson(at(document, 'paths', '/agent-catalog/health', 'get'));
    expect(catalog.operationId).toBe('getCatalog');
    expect(health.operationId).toBe('getHealth');
    expect(Object.keys(asJson(catalog.responses)).sort()).toEqual(['200', '500']);
    expect(Object.keys(asJson(health.responses))).toEqual(['200']);
    expect(at(catalog, 'responses', '500', 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(catalog.security).toEqual([{}]);
    expect(health.security).toEqual([{}]);
    expect(document.security).toBeUndefined();
  });

  test('names the server from base_url', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'https://shop.pomona.example' })]);
  });

  test('when base_url carries a path then the server carries it and the paths stay the same', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      base_url: 'https://shop.pomona.example/api/v/',
    });
    const withPath = buildOpenApiDocument(config);
    expect(withPath.servers).toEqual([expect.objectContaining({ url: 'https://shop.pomona.example/api/v' })]);
    expect(Object.keys(asJson(withPath.paths))).toEqual(['/agent-catalog', '/agent-catalog/health']);
  });

  test('declares the optional OAuth 2.0 and OpenID Connect schemes from the issuer metadata', () => {
    const metadata = buildAuthorizationServerMetadata({ issuer: plan.config.auth_url });
    const schemes = asJson(at(document, 'components', 'securitySchemes'));
    expect(at(schemes, 'openIdConnect', 'openIdConnectUrl')).toBe(
      'https://auth.pomona.example/.well-known/openid-configuration',
    );
    const flow = asJson(at(schemes, 'oauth2', 'flows', 'authorizationCode'));
    expect(flow.authorizationUrl).toBe(metadata.authorization_endpoint);
    expect(flow.tokenUrl).toBe(metadata.token_endpoint);
    expect(Object.keys(asJson(flow.scopes))).toEqual(['openid', 'profile', 'email', 'offline_access']);
  });

  test('carries contact, terms, and the usage rules as prose and as x-usage-policy', () => {
    const info = asJson(document.info);
    expect(info.contact).toEqual({ name: 'Pomona Press Juice Co.', email: 'hello@pomona.example' });
    expect(info.termsOfService).toBe('https://shop.pomona.example/api/#usage');
    expect(info['x-usage-policy']).toMatchObject({
      automated_purchases: false,
      model_training: false,
      rate_limit: { requests: 60, window_seconds: 60, comparison: 'under' },
    });
    expect(String(info.description)).toContain('Pomona Press Juice Co.');
  });

  test('its component schemas come back out as one JSON Schema 2020-12 bundle', () => {
    const bundle = asJson(jsonSchemasFromOpenApi(document));
    expect(bundle.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(asJson(bundle.$defs))).toEqual([
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
    ]);
    expect(at(bundle, '$defs', 'Catalog', 'properties', 'products', 'items')).toEqual({
      $ref: '#/$defs/Product',
    });
    expect(at(bundle, '$defs', 'Product', 'properties', 'variants', 'items')).toEqual({
      $ref: '#/$defs/Variant',
    });
  });
});

describe('the schemas', () => {
  test('accept the sample catalog, health document and error body', () => {
    const plan = makeSamplePlan();
    expect(validateAgainst('Catalog', catalogOf(plan), 'c')).toEqual([]);
    expect(validateAgainst('Health', plan.health, 'h')).toEqual([]);
    expect(validateAgainst('Error', { error: 'upstream catalog error' }, 'e')).toEqual([]);
  });

  test('accept a catalog of products with variants, images, brands, sale prices and digital goods', () => {
    const plan = makeVariedPlan();
    expect(validateAgainst('Catalog', catalogOf(plan), 'c')).toEqual([]);
  });

  const brokenVariant: [string, (variant: Json) => void, string][] = [
    ['a variant price is a number', (v) => (v.price = 45), '/variants/0/price'],
    ['a variant availability is unknown', (v) => (v.availability = 'low_stock'), '/variants/0/availability'],
    [
      'a variant "was" price has a currency',
      (v) => (v.compare_at_price = '$59'),
      '/variants/0/compare_at_price',
    ],
    ['a variant image is not a URI', (v) => (v.image = 'hoodie.jpg'), '/variants/0/image'],
    ['requires_shipping is text', (v) => (v.requires_shipping = 'no'), '/variants/0/requires_shipping'],
  ];
  test.each(brokenVariant)('reject a product where %s', (_name, breakIt, pointer) => {
    const product = JSON.parse(JSON.stringify([...recordsOf(makeVariedPlan().products)][2])) as Json;
    const [variant] = product.variants as Json[];
    if (variant === undefined) throw new Error('no variant');
    breakIt(variant);
    const problems = validateAgainst('Product', product, 'kb/products.json');
    expect(problems.some((problem) => problem.message.startsWith(`Product: ${pointer}`))).toBe(true);
  });

  test('accept a product with no fields at all, as spec 2.4 requires nothing', () => {
    expect(validateAgainst('Product', {}, 'p')).toEqual([]);
  });

  const broken: [string, (catalog: Json) => void, string][] = [
    ['count is missing', (c) => delete c.count, ''],
    ['count is not an integer', (c) => (c.count = 2.5), '/count'],
    ['generated is not a date-time', (c) => (c.generated = 'yesterday'), '/generated'],
    [
      'availability is not one of the three states',
      (c) => (productOf(c).availability = 'sold_out'),
      '/products/0/availability',
    ],
    ['price is a number', (c) => (productOf(c).price = 42), '/products/0/price'],
    ['price has a comma', (c) => (productOf(c).price = '42,00'), '/products/0/price'],
    ['price carries the currency', (c) => (productOf(c).price = '$42.00'), '/products/0/price'],
    ['currency is lower case', (c) => (productOf(c).currency = 'usd'), '/products/0/currency'],
    ['the product url is not a URI', (c) => (productOf(c).url = 'not a url'), '/products/0/url'],
    ['ingredients is a number', (c) => (productOf(c).ingredients = 3), '/products/0/ingredients'],
    ['description is missing its null', (c) => (productOf(c).description = 7), '/products/0/description'],
    ['checkout type is not redirect', (c) => (asJson(c.checkout).type = 'api'), '/checkout/type'],
    ['merchant is missing', (c) => delete c.merchant, ''],
  ];
  test.each(broken)('reject a catalog where %s', (_name, breakIt, pointer) => {
    const catalog = sampleCatalog();
    breakIt(catalog);
    const problems = validateAgainst('Catalog', catalog, 'agent-catalog.json');
    expect(problems.length).toBeGreaterThan(0);
    expect(
      problems.every((problem) => problem.rule === 'schema' && problem.path === 'agent-catalog.json'),
    ).toBe(true);
    expect(problems.some((problem) => problem.message.startsWith(`Catalog: ${pointer || '(root)'}`))).toBe(
      true,
    );
  });

  test('reject a health document whose status is not ok', () => {
    expect(validateAgainst('Health', { status: 'degraded' }, 'h')).toHaveLength(1);
    expect(validateAgainst('Health', {}, 'h')).toHaveLength(1);
  });
});
