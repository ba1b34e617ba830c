/**
 * The UCP business profile at `{site_url}/.well-known/ucp` (Universal Commerce Protocol,
 * release 2026-04-08, `source/discovery/profile_schema.json` `business_profile`): the
 * `dev.ucp.shopping` service on its REST (`{base_url}/ucp`) and MCP (`{base_url}/mcp`)
 * transports, the catalog search and lookup capabilities, and `payment_handlers` present
 * and empty (this catalog takes no payment). A static file; published only when the live
 * surface is on, since the endpoints it names are the live handler's.
 */
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../live/ucp-types.js';
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { stableJson } from './json.js';
import { liveEndpoints } from './live-endpoints.js';

export const UCP_PROFILE = {
  path: '.well-known/ucp.json',
  publicPath: '/.well-known/ucp',
  mediaType: 'application/json',
} as const;

const SPEC_ROOT = `https://ucp.dev/${UCP_VERSION}`;

export function buildUcpProfile(config: ResolvedConfig): Record<string, unknown> | undefined {
  const endpoints = liveEndpoints(config);
  if (endpoints === undefined) return undefined;
  const service = (transport: 'rest' | 'mcp', schema: string, endpoint: string) => ({
    version: UCP_VERSION,
    spec: `${SPEC_ROOT}/specification/overview`,
    transport,
    schema: `${SPEC_ROOT}/services/shopping/${schema}`,
    endpoint,
  });
  const capability = (name: 'search' | 'lookup', schema: string) => [
    {
      version: UCP_VERSION,
      spec: `${SPEC_ROOT}/specification/catalog/${name}`,
      schema: `${SPEC_ROOT}/schemas/shopping/${schema}`,
    },
  ];
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        'dev.ucp.shopping': [
          service('rest', 'rest.openapi.json', endpoints.rest),
          service('mcp', 'mcp.openrpc.json', endpoints.mcp),
        ],
      },
      capabilities: {
        [SEARCH_CAPABILITY]: capability('search', 'catalog_search.json'),
        [LOOKUP_CAPABILITY]: capability('lookup', 'catalog_lookup.json'),
      },
      payment_handlers: {},
    },
  };
}

export function emitUcpProfile(plan: BuildPlan): Artifact[] {
  const profile = buildUcpProfile(plan.config);
  if (profile === undefined) return [];
  return [{ ...UCP_PROFILE, body: stableJson(profile) }];
}
