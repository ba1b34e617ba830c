/**
 * `/.well-known/ai-catalog.json`, an AI Catalog (Agent-Card/ai-catalog, specVersion 1.0,
 * media type `application/ai-catalog+json`) at its well-known URI: the operator (`host`)
 * and one entry per discovery document of the bundle, each with the media type of what its
 * `url` serves in `type` (the member the spec's ADR 0014 renamed from `mediaType`): the MCP
 * server card (`application/mcp-server-card+json`, as the server-card extension's
 * discovery text says), the A2A agent card, the agent skills index and the RFC 9727 API
 * catalog. Each entry carries 2 to 5 `representativeQueries`, questions the artifact
 * answers, which Agentic Resource Discovery registries index and Cloudflare's scanner
 * requires. Identifiers use the `urn:air:{publisher}:{namespace}:{name}` form the MCP
 * discovery document recommends, anchored at the site's host.
 */
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { SKILLS_INDEX_FILE, SKILLS_SCHEMA } from './agent-skills.js';
import { stableJson } from './json.js';
import { liveSurface } from './live-endpoints.js';
import { SERVER_CARD_MEDIA_TYPE } from './mcp-server-card.js';
import { API_DOCS_PATH, siteUrl } from './sitemap-pages.js';
import { WELL_KNOWN_DOCUMENTS } from './well-known.js';

export const AI_CATALOG_FILE = '.well-known/ai-catalog.json';
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';
export const AI_CATALOG_SPEC_VERSION = '1.0';

export function buildAiCatalog(config: ResolvedConfig): Record<string, unknown> {
  const host = new URL(config.site_url).hostname;
  const urn = (namespace: string, name: string) => `urn:air:${host}:${namespace}:${name}`;
  const merchant = config.merchant.name;
  const live = liveSurface(config);
  const liveEntries =
    live === undefined
      ? []
      : [
          {
            identifier: urn('mcp', 'catalog'),
            displayName: `${merchant} catalog (MCP)`,
            type: SERVER_CARD_MEDIA_TYPE,
            description: 'MCP server: search_catalog, lookup_catalog, get_product.',
            tags: ['mcp', 'catalog', 'products'],
            url: live.mcpServerCard,
            representativeQueries: [
              `Find ${merchant} products under $20`,
              `Which ${merchant} products are in stock?`,
              `Look up a ${merchant} product by its id and list its variants`,
            ],
          },
          // The A2A card exists only where the live handler serves its endpoint.
          {
            identifier: urn('a2a', 'catalog'),
            displayName: `${merchant} catalog (A2A agent card)`,
            type: 'application/a2a-agent-card+json',
            tags: ['a2a', 'catalog'],
            url: siteUrl(config, `/${WELL_KNOWN_DOCUMENTS.agentCard.path}`),
            representativeQueries: [
              `What does ${merchant} sell?`,
              `Search the ${merchant} catalog for a product`,
            ],
          },
        ];
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    host: {
      displayName: merchant,
      identifier: host,
      documentationUrl: siteUrl(config, API_DOCS_PATH),
      ...(config.merchant.logo_url ? { logoUrl: config.merchant.logo_url } : {}),
    },
    entries: [
      ...liveEntries,
      {
        identifier: urn('skills', 'index'),
        displayName: `${merchant} agent skills`,
        type: 'application/json',
        description: `Agent Skills discovery index (${SKILLS_SCHEMA}).`,
        tags: ['agent-skills'],
        url: siteUrl(config, `/${SKILLS_INDEX_FILE}`),
        representativeQueries: [
          `How should an agent search and cite the ${merchant} catalog?`,
          `What are the usage rules for ${merchant} product data?`,
        ],
      },
      {
        identifier: urn('api', 'catalog'),
        displayName: `${merchant} API catalog`,
        type: 'application/linkset+json',
        description: 'RFC 9727 API catalog: the catalog API, its OpenAPI description, docs and status.',
        tags: ['openapi', 'api-catalog'],
        url: siteUrl(config, WELL_KNOWN_DOCUMENTS.apiCatalog.publicPath),
        representativeQueries: [
          `Where is the ${merchant} catalog API and its OpenAPI description?`,
          `Which API endpoints does ${merchant} publish for agents?`,
        ],
      },
    ],
  };
}

export function emitAiCatalog(plan: BuildPlan): Artifact[] {
  return [
    {
      path: AI_CATALOG_FILE,
      mediaType: AI_CATALOG_MEDIA_TYPE,
      body: stableJson(buildAiCatalog(plan.config)),
    },
  ];
}
