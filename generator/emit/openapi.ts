/**
 * The API description at `/api/openapi.json` (spec parts 4, 5, 8 and 9): OpenAPI 3.1.0,
 * version 1.0.0, the two public read operations, the component schemas of part 2, the
 * optional OAuth 2.0 and OpenID Connect schemes, and the usage rules both as prose and
 * as the `x-usage-policy` extension. It is a pure function of the config and of which
 * facts the products carry (`catalog-fields.ts`), never of the products themselves, so it
 * changes only when the merchant's setup or the shape of its catalog does.
 */
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { type CatalogFields, describeCatalogFacts, describeCatalogFields } from './catalog-fields.js';
import { stableJson } from './json.js';
import { buildUsageExtension, describeAccountAccess } from './openapi-policy.js';
import { buildComponentSchemas, type SchemaName } from './openapi-schemas.js';
import { filePathOf, OPENAPI_PATH } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';

export const OPENAPI_FILE = filePathOf(OPENAPI_PATH);
export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '1.0.0';
/** The catalog paths relative to the server URL ({base_url}), as spec part 4 names them. */
export const CATALOG_OPERATION_PATH = '/agent-catalog';
export const HEALTH_OPERATION_PATH = '/agent-catalog/health';

export type OpenApiDocument = Record<string, unknown>;

function jsonResponse(description: string, schema: SchemaName, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  };
}

function buildContact(config: ResolvedConfig): Record<string, string> {
  const { name, contact } = config.merchant;
  if (/^[^\s@]+@[^\s@]+$/.test(contact)) return { name, email: contact };
  if (/^https?:\/\//.test(contact)) return { name, url: contact };
  return { name };
}

function buildDescription(config: ResolvedConfig, fields: CatalogFields | undefined): string {
  const policy = resolveUsagePolicy(config);
  const facts = fields === undefined ? 'price, availability' : describeCatalogFacts(fields);
  return [
    `The full product catalog of ${config.merchant.name}: ${facts}, and the page where a person buys each product.`,
    'The catalog and health operations are public: no key, token or registration. CORS is open to every origin. The catalog is cached for 15 minutes.',
    ['Usage rules:', ...policy.rules.map((rule) => `- ${rule.text}`)].join('\n'),
    'Account-scoped access for a signed-in customer is optional: OAuth 2.0 authorization code with PKCE (S256), see the security schemes.',
  ].join('\n\n');
}

function buildPaths(): Record<string, unknown> {
  const cacheControl = {
    'Cache-Control': {
      description: 'The catalog is cached for 15 minutes.',
      schema: { type: 'string', examples: ['public, max-age=900'] },
    },
  };
  return {
    [CATALOG_OPERATION_PATH]: {
      get: {
        operationId: 'getCatalog',
        summary: 'Get the full product catalog',
        description: 'Returns every product; `count` equals the number of entries in `products`.',
        tags: ['catalog'],
        // Spec 5.1: no key, token or registration. An empty requirement makes that explicit.
        security: [{}],
        responses: {
          '200': jsonResponse('The whole catalog.', 'Catalog', cacheControl),
          '500': jsonResponse('The upstream catalog failed.', 'Error'),
        },
      },
    },
    [HEALTH_OPERATION_PATH]: {
      get: {
        operationId: 'getHealth',
        summary: 'Check that the service is up',
        description: 'Reports liveness without calling upstream services.',
        tags: ['catalog'],
        security: [{}],
        responses: { '200': jsonResponse('The service is up.', 'Health') },
      },
    },
  };
}

/** The optional OAuth 2.0 and OpenID Connect schemes (also used by the agent card). */
export function buildSecuritySchemes(config: ResolvedConfig): Record<string, unknown> {
  const access = describeAccountAccess(config);
  const scopes = Object.fromEntries(access.scopes.map((scope) => [scope.name, scope.description]));
  return {
    oauth2: {
      type: 'oauth2',
      description:
        'Optional, for account-scoped access on behalf of a signed-in customer. Authorization code flow with PKCE (code_challenge_method S256 is required). Clients register themselves at the registration endpoint.',
      flows: {
        authorizationCode: {
          authorizationUrl: access.authorizationEndpoint,
          tokenUrl: access.tokenEndpoint,
          refreshUrl: access.tokenEndpoint,
          scopes,
        },
      },
    },
    openIdConnect: {
      type: 'openIdConnect',
      description: 'Optional: the same issuer, described by OpenID Connect Discovery.',
      openIdConnectUrl: access.openIdConfigurationUrl,
    },
  };
}

/**
 * The API description. `fields` (the facts this merchant's products carry) tailors the
 * one sentence that lists them; without it the sentence names only price and availability.
 */
export function buildOpenApiDocument(config: ResolvedConfig, fields?: CatalogFields): OpenApiDocument {
  const policy = resolveUsagePolicy(config);
  const access = describeAccountAccess(config);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${config.merchant.name} Catalog API`,
      version: API_VERSION,
      summary: 'Read-only product catalog for AI agents and other clients.',
      description: buildDescription(config, fields),
      termsOfService: policy.termsUrl,
      contact: buildContact(config),
      license: {
        name: policy.allowTraining ? 'Cite with attribution' : 'Cite with attribution; no model training',
        url: policy.termsUrl,
      },
      'x-usage-policy': buildUsageExtension(policy),
    },
    servers: [{ url: config.base_url, description: `${config.merchant.name} catalog` }],
    externalDocs: { description: 'Documentation', url: `${config.site_url}/api/` },
    tags: [{ name: 'catalog', description: 'Public, read-only catalog operations.' }],
    paths: buildPaths(),
    components: {
      schemas: buildComponentSchemas(),
      securitySchemes: buildSecuritySchemes(config),
    },
    'x-account-access': {
      issuer: access.issuer,
      protected_resource_metadata: access.protectedResourceMetadataUrl,
      registration_endpoint: access.registrationEndpoint,
      code_challenge_methods: access.codeChallengeMethods,
    },
  };
}

export function emitOpenApi(plan: BuildPlan): Artifact[] {
  return [
    {
      path: OPENAPI_FILE,
      mediaType: 'application/json',
      body: stableJson(buildOpenApiDocument(plan.config, describeCatalogFields(plan))),
    },
  ];
}
