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
import { type CatalogFields, describeCatalogFacts } from './catalog-fields.js';
import { type LiveEndpoints, liveSurface } from './live-endpoints.js';
import { API_VERSION } from './openapi.js';
import { buildUsageExtension, describeAccountAccess } from './openapi-policy.js';
import { resolveUsagePolicy } from './usage-policy.js';

function searchSkill(config: ResolvedConfig, live: LiveEndpoints): Record<string, unknown> {
  return {
    id: 'searchCatalog',
    name: 'Search the product catalog',
    description: `Send a message whose text is a search query, or whose data part is a UCP catalog search object ({query, filters, pagination}); the answer is one message whose data part is exactly what the MCP tool search_catalog at ${live.mcp} returns (products with prices in minor units and every variant), mirrored as JSON text. No authentication.`,
    tags: ['search', 'products', 'ucp', 'read-only'],
    examples: [`Find ${config.merchant.name} products under $20.`, 'ginger shots'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json'],
  };
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
export function buildAgentCard(
  config: ResolvedConfig,
  fields: CatalogFields,
): Record<string, unknown> | undefined {
  const policy = resolveUsagePolicy(config);
  const live = liveSurface(config);
  // No live handler, no A2A endpoint: a card would claim what is not served.
  if (live === undefined) return undefined;
  const { merchant } = config;
  return {
    name: `${merchant.name} Catalog`,
    description: [
      merchant.description ?? `The product catalog of ${merchant.name}.`,
      'A free, public, read-only catalog API: no key, token or registration; purchases are completed by a person on the merchant website.',
      ...policy.rules.map((rule) => rule.text),
    ].join(' '),
    // A2A 1.0 §5.8: one of the core bindings, served by the live handler (live/a2a-route.ts).
    supportedInterfaces: [
      { url: live.a2a, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
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
          // Not required: a required extension makes A2A servers refuse every client that does not
          // declare it (A2A 1.0 §4.6), and these are terms to honour, not a protocol to speak.
          required: false,
          params: buildUsageExtension(policy),
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json'],
    // The facts a product carries, for the reader deciding whether to ask.
    skills: [
      {
        ...searchSkill(config, live),
        description: `${searchSkill(config, live).description} Products carry ${describeCatalogFacts(fields)}.`,
      },
    ],
    // Declared, never required: spec 5.1, the catalog operations need no authentication.
    securitySchemes: buildA2aSecuritySchemes(config),
  };
}
