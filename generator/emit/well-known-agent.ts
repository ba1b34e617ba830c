/**
 * The agent descriptor published at `/.well-known/agent.json` and, under the newer
 * name, `/.well-known/agent-card.json`: A2A AgentCard fields where they fit (name,
 * description, url, provider, version, capabilities, input and output modes, skills,
 * security schemes). The catalog is a plain read-only HTTP API rather than an A2A
 * task endpoint, so the card advertises no streaming or push notifications and carries
 * the usage rules as a required capability extension pointing at the terms.
 */
import type { ResolvedConfig } from '../config.js';
import { catalogUrls } from './catalog.js';
import { type CatalogFields, describeCatalogFacts } from './catalog-fields.js';
import { API_VERSION, buildSecuritySchemes } from './openapi.js';
import { buildUsageExtension } from './openapi-policy.js';
import { resolveUsagePolicy } from './usage-policy.js';

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

/** The card for this merchant; `fields` says which product facts its skill description names. */
export function buildAgentCard(config: ResolvedConfig, fields: CatalogFields): Record<string, unknown> {
  const policy = resolveUsagePolicy(config);
  const { merchant } = config;
  return {
    name: `${merchant.name} Catalog`,
    description: [
      merchant.description ?? `The product catalog of ${merchant.name}.`,
      'A free, public, read-only catalog API: no key, token or registration; purchases are completed by a person on the merchant website.',
      ...policy.rules.map((rule) => rule.text),
    ].join(' '),
    url: catalogUrls(config).catalogUrl,
    provider: { organization: merchant.name, url: merchant.url },
    version: API_VERSION,
    documentationUrl: `${config.site_url}/api/`,
    ...(merchant.logo_url ? { iconUrl: merchant.logo_url } : {}),
    capabilities: {
      streaming: false,
      pushNotifications: false,
      stateTransitionHistory: false,
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
    securitySchemes: buildSecuritySchemes(config),
    supportsAuthenticatedExtendedCard: false,
  };
}
