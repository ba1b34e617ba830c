/**
 * The URLs of the live surface the discovery documents name (CONTRACT.md, "Live paths"):
 * the MCP endpoint, its server card and the UCP REST base, all under `{base_url}`, or
 * undefined when `live.enabled` is off, so no document names an endpoint that is not there.
 * `liveEndpoints` is the one place that decides them.
 */
import type { ResolvedConfig } from '../config.js';

/** `{base_url}/mcp`, the UCP REST root `{base_url}/ucp` and the A2A endpoint `{base_url}/a2a`, when the live surface is on. */
export function liveEndpoints(
  config: ResolvedConfig,
): { mcp: string; rest: string; a2a: string } | undefined {
  if (!config.live.enabled) return undefined;
  return { mcp: `${config.base_url}/mcp`, rest: `${config.base_url}/ucp`, a2a: `${config.base_url}/a2a` };
}

export interface LiveEndpoints {
  /** `{base_url}/mcp`: MCP over Streamable HTTP. */
  mcp: string;
  /** `{base_url}/mcp/server-card`: the MCP server card at the path the extension reserves. */
  mcpServerCard: string;
  /** `{base_url}/ucp`: UCP REST; `POST /catalog/search`, `/catalog/lookup`, `/catalog/product`. */
  ucpRest: string;
  /** `{base_url}/a2a`: A2A 1.0 over JSON-RPC (SendMessage answers with search_catalog's result). */
  a2a: string;
}

/** MCP protocol revisions the live handler speaks (CONTRACT.md, "Live paths"). */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-06-18', '2025-11-25'];

export function liveSurface(config: ResolvedConfig): LiveEndpoints | undefined {
  const endpoints = liveEndpoints(config);
  if (endpoints === undefined) return undefined;
  return {
    mcp: endpoints.mcp,
    mcpServerCard: `${endpoints.mcp}/server-card`,
    ucpRest: endpoints.rest,
    a2a: endpoints.a2a,
  };
}

/** The URL path (on the site) of a URL under `{base_url}`. */
export function pathOnSite(url: string): string {
  return new URL(url).pathname;
}
