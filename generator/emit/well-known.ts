/**
 * The discovery documents under `{site_url}/.well-known/` (spec 5.2): the protected
 * resource metadata (RFC 9728), copies of the issuer's own metadata (RFC 8414 and
 * OpenID Connect Discovery, computed by `auth-server/metadata.ts` so the copies cannot
 * drift from what the issuer serves), the API catalog linkset (RFC 9727) and the agent
 * card at both of its names. Extension-less URLs are published as `.json` files with a
 * `publicPath`; the hosting rules rewrite the URL to the file and set the media type.
 */
import { mcpEndpointOf, protectedResourceMetadataUrlOf } from '../../access-token/resource-urls.js';
import { buildAuthorizationServerMetadata, buildOpenIdConfiguration } from '../../auth-server/metadata.js';
import { CUSTOMER_PROFILE_TOOL } from '../../live/account/customer-profile.js';
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { catalogUrls } from './catalog.js';
import { describeCatalogFields } from './catalog-fields.js';
import { stableJson } from './json.js';
import { liveEndpoints } from './live-endpoints.js';
import { describeAccountAccess, issuerMetadataInput } from './openapi-policy.js';
import { OPENAPI_PATH, siteUrl } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';
import { buildAgentCard } from './well-known-agent.js';
import { UCP_PROFILE } from './well-known-ucp.js';

/** RFC 9727 §5: the media type of the api-catalog resource when it is a JSON linkset. */
export const API_CATALOG_MEDIA_TYPE =
  'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
export const OPENAPI_LINK_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

/** The documents this module publishes: bundle file, URL path and media type. */
export const WELL_KNOWN_DOCUMENTS = {
  protectedResource: {
    path: '.well-known/oauth-protected-resource.json',
    publicPath: '/.well-known/oauth-protected-resource',
    mediaType: 'application/json',
  },
  authorizationServer: {
    path: '.well-known/oauth-authorization-server.json',
    publicPath: '/.well-known/oauth-authorization-server',
    mediaType: 'application/json',
  },
  openIdConfiguration: {
    path: '.well-known/openid-configuration.json',
    publicPath: '/.well-known/openid-configuration',
    mediaType: 'application/json',
  },
  apiCatalog: {
    path: '.well-known/api-catalog.json',
    publicPath: '/.well-known/api-catalog',
    mediaType: API_CATALOG_MEDIA_TYPE,
  },
  agent: { path: '.well-known/agent.json', mediaType: 'application/json' },
  agentCard: { path: '.well-known/agent-card.json', mediaType: 'application/json' },
} as const;

/** RFC 9728 §2 protected resource metadata for the site. */
export function buildProtectedResourceMetadata(config: ResolvedConfig): Record<string, unknown> {
  const access = describeAccountAccess(config);
  const policy = resolveUsagePolicy(config);
  return {
    // RFC 9728 §3.3: "the resource value returned MUST be identical to the protected
    // resource's resource identifier value into which the well-known URI path suffix was
    // inserted". The document lives at {site_url}/.well-known/oauth-protected-resource,
    // so the identifier is {site_url} exactly: no trailing slash added.
    resource: config.site_url,
    // The issuer identifier exactly as configured (RFC 8414 §2 issuer).
    authorization_servers: [config.auth_url],
    scopes_supported: access.scopes.map((scope) => scope.name),
    // Spec 5.5: "Never place a token in a URL." Only the Authorization header is accepted.
    bearer_methods_supported: ['header'],
    resource_name: `${config.merchant.name} catalog`,
    resource_documentation: `${config.site_url}/api/`,
    resource_policy_uri: policy.termsUrl,
    resource_tos_uri: policy.termsUrl,
  };
}

/**
 * RFC 9728 metadata for the MCP endpoint `{base_url}/mcp`: its `resource` is exactly the
 * endpoint's URL (RFC 9728 §3.3, and what MCP clients send as RFC 8707 `resource`), and it
 * lives at the path-inserted well-known URL (§3.1), which the endpoint's 401 names.
 */
export function buildMcpProtectedResourceMetadata(config: ResolvedConfig): Record<string, unknown> {
  const policy = resolveUsagePolicy(config);
  return {
    resource: mcpEndpointOf(config.base_url),
    authorization_servers: [config.auth_url],
    // What the endpoint's one protected tool, get_customer_profile, needs.
    scopes_supported: [...CUSTOMER_PROFILE_TOOL.scopes],
    bearer_methods_supported: ['header'],
    resource_name: `${config.merchant.name} MCP server`,
    resource_policy_uri: policy.termsUrl,
    resource_tos_uri: policy.termsUrl,
  };
}

/** Where that document is published: file and public path, both derived from the endpoint's path. */
export function mcpProtectedResourceDocument(config: ResolvedConfig): {
  path: string;
  publicPath: string;
  mediaType: string;
} {
  const publicPath = new URL(protectedResourceMetadataUrlOf(mcpEndpointOf(config.base_url))).pathname;
  return { path: `${publicPath.slice(1)}.json`, publicPath, mediaType: 'application/json' };
}

/** RFC 9264 §4.2 linkset anchored at the catalog, the form RFC 9727 §4.2 requires. */
export function buildApiCatalog(config: ResolvedConfig): Record<string, unknown> {
  const { catalogUrl, healthUrl } = catalogUrls(config);
  const { termsUrl } = resolveUsagePolicy(config);
  return {
    linkset: [
      {
        anchor: catalogUrl,
        'service-desc': [{ href: siteUrl(config, OPENAPI_PATH), type: OPENAPI_LINK_TYPE }],
        'service-doc': [{ href: `${config.site_url}/api/`, type: 'text/html' }],
        status: [{ href: healthUrl, type: 'application/json' }],
        'terms-of-service': [{ href: termsUrl, type: 'text/html' }],
        license: [{ href: termsUrl, type: 'text/html' }],
      },
      ...liveApiContexts(config, termsUrl),
    ],
  };
}

/** The live endpoints, when on: MCP and UCP REST, each described by the UCP business profile. */
function liveApiContexts(config: ResolvedConfig, termsUrl: string): Record<string, unknown>[] {
  const endpoints = liveEndpoints(config);
  if (endpoints === undefined) return [];
  const links = {
    'service-desc': [{ href: `${config.site_url}${UCP_PROFILE.publicPath}`, type: UCP_PROFILE.mediaType }],
    'service-doc': [{ href: `${config.site_url}/api/`, type: 'text/html' }],
    'terms-of-service': [{ href: termsUrl, type: 'text/html' }],
  };
  return [
    { anchor: endpoints.mcp, ...links },
    { anchor: endpoints.rest, ...links },
  ];
}

function document(entry: { path: string; mediaType: string; publicPath?: string }, value: unknown): Artifact {
  return {
    path: entry.path,
    mediaType: entry.mediaType,
    ...(entry.publicPath ? { publicPath: entry.publicPath } : {}),
    body: stableJson(value),
  };
}

export function emitWellKnown(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const docs = WELL_KNOWN_DOCUMENTS;
  // The copies must equal what the issuer serves, so they get the same input: its identifier
  // and the merchant's site (the issuer reads site_url from the same catalog config).
  const issuer = issuerMetadataInput(config);
  const agentCard = buildAgentCard(config, describeCatalogFields(plan));
  return [
    document(docs.protectedResource, buildProtectedResourceMetadata(config)),
    // The MCP endpoint exists only with the live surface; without it nothing may point at it.
    ...(config.live.enabled
      ? [document(mcpProtectedResourceDocument(config), buildMcpProtectedResourceMetadata(config))]
      : []),
    document(docs.authorizationServer, buildAuthorizationServerMetadata(issuer)),
    document(docs.openIdConfiguration, buildOpenIdConfiguration(issuer)),
    document(docs.apiCatalog, buildApiCatalog(config)),
    // Only where the live handler serves its A2A endpoint (well-known-agent.ts).
    ...(agentCard === undefined
      ? []
      : [document(docs.agent, agentCard), document(docs.agentCard, agentCard)]),
  ];
}
