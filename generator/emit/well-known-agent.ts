/**
 * The agent descriptor published at `/.well-known/agent-card.json` and, under its older
 * name, `/.well-known/agent.json` (same body): an A2A 1.0 AgentCard (a2aproject/A2A,
 * `specification/a2a.proto`, message AgentCard): name, description,
 * `supportedInterfaces`, provider, version, capabilities, `defaultInputModes`,
 * `defaultOutputModes`, skills with examples, and the optional security schemes in the
 * 1.0 tagged form. The catalog is a read-only HTTP API and an MCP server rather than an
 * A2A task endpoint, so each interface names the protocol its URL speaks in the open
 * `protocolBinding` field ("an open form string, to be easily extended for other protocol
 * bindings"), the card advertises no streaming or push notifications, and it carries the
 * usage rules as a required capability extension pointing at the terms.
 */
import type { ResolvedConfig } from '../config.js';
import { catalogUrls } from './catalog.js';
import { type CatalogFields, describeCatalogFacts } from './catalog-fields.js';
import { liveSurface } from './live-endpoints.js';
import { API_VERSION } from './openapi.js';
import { buildUsageExtension, describeAccountAccess } from './openapi-policy.js';
import { resolveUsagePolicy } from './usage-policy.js';

function searchSkill(config: ResolvedConfig): Record<string, unknown>[] {
  const live = liveSurface(config);
  if (live === undefined) return [];
  return [
    {
      id: 'searchCatalog',
      name: 'Search and look up products',
      description: `The MCP server at ${live.mcp} (tools search_catalog, lookup_catalog, get_product) and the UCP REST endpoints under ${live.ucpRest}/catalog answer product questions with prices in minor units and every variant. No authentication.`,
      tags: ['search', 'products', 'mcp', 'ucp', 'read-only'],
      examples: [
        `Find ${config.merchant.name} products under $20.`,
        'Look up the product with this id and list its variants.',
      ],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    },
  ];
}

function buildSkills(config: ResolvedConfig, fields: CatalogFields): Record<string, unknown>[] {
  const base = config.base_url;
  return [
    {
      id: 'getCatalog',
      name: 'Get the product catalog',
      description: `GET ${base}/agent-catalog returns every product of ${config.merchant.name} as JSON: ${describeCatalogFacts(fields)}, and the product URL where a person buys it. No authentication.`,
      tags: ['catalog', 'products', 'prices', 'availability', 'read-only'],
      examples: [
        `GET ${base}/agent-catalog`,
        `Which ${config.merchant.name} products are in stock, and what do they cost?`,
      ],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    },
    ...searchSkill(config),
    {
      id: 'getHealth',
      name: 'Check the service health',
      description: `GET ${base}/agent-catalog/health reports liveness ({"status":"ok"}) without calling upstream services.`,
      tags: ['health', 'status'],
      examples: [`GET ${base}/agent-catalog/health`],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    },
  ];
}

/** A2A 1.0's SecurityScheme is a tagged union (`oauth2SecurityScheme`, `openIdConnectSecurityScheme`, …). */
function buildA2aSecuritySchemes(config: ResolvedConfig): Record<string, unknown> {
  const access = describeAccountAccess(config);
  return {
    oauth2: {
      oauth2SecurityScheme: {
        description:
          'Optional, for account-scoped access on behalf of a signed-in customer: authorization code with PKCE (S256).',
        flows: {
          authorizationCode: {
            authorizationUrl: access.authorizationEndpoint,
            tokenUrl: access.tokenEndpoint,
            refreshUrl: access.tokenEndpoint,
            scopes: Object.fromEntries(access.scopes.map((scope) => [scope.name, scope.description])),
            pkceRequired: true,
          },
        },
        oauth2MetadataUrl: access.authorizationServerMetadataUrl,
      },
    },
    openIdConnect: {
      openIdConnectSecurityScheme: {
        description: 'Optional: the same issuer, described by OpenID Connect Discovery.',
        openIdConnectUrl: access.openIdConfigurationUrl,
      },
    },
  };
}

/** A2A protocol version of the card's shape. */
export const A2A_PROTOCOL_VERSION = '1.0';

/** The card for this merchant; `fields` says which product facts its skill description names. */
export function buildAgentCard(config: ResolvedConfig, fields: CatalogFields): Record<string, unknown> {
  const policy = resolveUsagePolicy(config);
  const live = liveSurface(config);
  const { merchant } = config;
  return {
    name: `${merchant.name} Catalog`,
    description: [
      merchant.description ?? `The product catalog of ${merchant.name}.`,
      'A free, public, read-only catalog API: no key, token or registration; purchases are completed by a person on the merchant website.',
      ...policy.rules.map((rule) => rule.text),
    ].join(' '),
    // Ordered: "the first entry is preferred". MCP answers questions; the catalog is one GET.
    supportedInterfaces: [
      ...(live === undefined
        ? []
        : [{ url: live.mcp, protocolBinding: 'MCP', protocolVersion: A2A_PROTOCOL_VERSION }]),
      {
        url: catalogUrls(config).catalogUrl,
        // Not A2A's own HTTP+JSON binding (no /message:send here): a plain GET answering JSON.
        protocolBinding: 'HTTP-GET+JSON',
        protocolVersion: A2A_PROTOCOL_VERSION,
      },
    ],
    provider: { organization: merchant.name, url: merchant.url },
    version: API_VERSION,
    documentationUrl: `${config.site_url}/api/`,
    ...(merchant.logo_url ? { iconUrl: merchant.logo_url } : {}),
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: policy.termsUrl,
          description:
            'Usage rules: attribution, no automated purchases, the request rate, no model training.',
          required: true,
          params: buildUsageExtension(policy),
        },
      ],
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: buildSkills(config, fields),
    // Declared, never required: spec 5.1, the catalog operations need no authentication.
    securitySchemes: buildA2aSecuritySchemes(config),
  };
}
