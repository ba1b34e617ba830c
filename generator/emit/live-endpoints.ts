/**
 * The URLs of the live surface (CONTRACT.md, "Live paths"): the MCP endpoint, its server
 * card and the UCP REST base, all under `{base_url}`. The discovery documents (the MCP
 * server cards, the AI catalog, the A2A card, the agent skill, the landing page's WebMCP
 * script) name these, so they are built in this one place.
 */
import type { ResolvedConfig } from '../config.js';

export interface LiveEndpoints {
  /** `{base_url}/mcp`: MCP over Streamable HTTP. */
  mcp: string;
  /** `{base_url}/mcp/server-card`: the MCP server card at the path the extension reserves. */
  mcpServerCard: string;
  /** `{base_url}/ucp`: UCP REST; `POST /catalog/search`, `/catalog/lookup`, `/catalog/product`. */
  ucpRest: string;
}

/** MCP protocol revisions the live handler speaks (CONTRACT.md, "Live paths"). */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-06-18', '2025-11-25'];

export function liveEndpoints(config: ResolvedConfig): LiveEndpoints {
  const base = config.base_url;
  return { mcp: `${base}/mcp`, mcpServerCard: `${base}/mcp/server-card`, ucpRest: `${base}/ucp` };
}

/** The URL path (on the site) of a URL under `{base_url}`. */
export function pathOnSite(url: string): string {
  return new URL(url).pathname;
}
