/**
 * The MCP server card, from one source in two shapes. The current one
 * (modelcontextprotocol/experimental-ext-server-card, `schema.json` `ServerCard`: `$schema`,
 * reverse-DNS `name`, `version`, `description`, `remotes`) is served at
 * `{base_url}/mcp/server-card`, the location the extension reserves ("MCP Servers MAY host
 * their Server Card at `GET <streamable-http-url>/server-card`"), with its media type
 * `application/mcp-server-card+json`. The older shape that agent-readiness scanners read at
 * `/.well-known/mcp/server-card.json` (SEP-1649's `serverInfo`, `transport`,
 * `capabilities`) carries the same facts. Both are built from `describeMcpServer`, so they
 * cannot disagree; the gate validates the current one against the vendored schema.
 */
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { stableJson } from './json.js';
import { type LiveEndpoints, liveSurface, MCP_PROTOCOL_VERSIONS, pathOnSite } from './live-endpoints.js';
import { API_VERSION } from './openapi.js';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
export const LEGACY_SERVER_CARD_FILE = '.well-known/mcp/server-card.json';

/** The facts both shapes state. */
export interface McpServerFacts {
  /** Reverse DNS of the site's host, then `/catalog` (the schema's `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`). */
  name: string;
  title: string;
  description: string;
  version: string;
  endpoint: string;
  websiteUrl: string;
  documentationUrl: string;
  protocolVersions: readonly string[];
}

/** The schema caps `description` at 100 characters. */
function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

export function describeMcpServer(config: ResolvedConfig, live: LiveEndpoints): McpServerFacts {
  const host = new URL(config.site_url).hostname.split('.').reverse().join('.');
  return {
    name: `${host}/catalog`,
    title: `${config.merchant.name} Catalog`,
    description: cut(`Search and look up the products of ${config.merchant.name} (read-only, no key).`, 100),
    version: API_VERSION,
    endpoint: live.mcp,
    websiteUrl: config.storefront_url,
    documentationUrl: `${config.site_url}/api/`,
    protocolVersions: MCP_PROTOCOL_VERSIONS,
  };
}

/** The current extension's ServerCard. */
export function buildServerCard(facts: McpServerFacts): Record<string, unknown> {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: facts.name,
    title: facts.title,
    version: facts.version,
    description: facts.description,
    websiteUrl: facts.websiteUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: facts.endpoint,
        supportedProtocolVersions: [...facts.protocolVersions],
      },
    ],
  };
}

/** The older shape scanners read at `/.well-known/mcp/server-card.json`. */
export function buildLegacyServerCard(facts: McpServerFacts): Record<string, unknown> {
  return {
    version: '1.0',
    protocolVersion: facts.protocolVersions.at(-1),
    serverInfo: { name: facts.name, title: facts.title, version: facts.version },
    description: facts.description,
    documentationUrl: facts.documentationUrl,
    transport: { type: 'streamable-http', endpoint: facts.endpoint },
    capabilities: { tools: { listChanged: false } },
    // The catalog tools are public; get_customer_profile alone asks for a bearer token.
    authentication: { required: false, schemes: ['bearer'] },
    tools: 'dynamic',
  };
}

/** Bundle file of the card served at `{base_url}/mcp/server-card`. */
export function serverCardFile(live: LiveEndpoints): { path: string; publicPath: string } {
  const publicPath = pathOnSite(live.mcpServerCard);
  return { path: `${publicPath.slice(1)}.json`, publicPath };
}

/** No live surface, no MCP server: neither card is published. */
export function emitMcpServerCards(plan: BuildPlan): Artifact[] {
  const live = liveSurface(plan.config);
  if (live === undefined) return [];
  const facts = describeMcpServer(plan.config, live);
  return [
    {
      ...serverCardFile(live),
      mediaType: SERVER_CARD_MEDIA_TYPE,
      body: stableJson(buildServerCard(facts)),
    },
    {
      path: LEGACY_SERVER_CARD_FILE,
      mediaType: 'application/json',
      body: stableJson(buildLegacyServerCard(facts)),
    },
  ];
}
