/**
 * The URLs a protected resource of the bundle is known by, derived in one place because
 * three parts need them to agree: the generator (which publishes the protected-resource
 * metadata), the issuer (whose default resources, RFC 8707, include the MCP endpoint) and
 * the live handler (whose 401 challenge points at that metadata). Pure string work, no I/O.
 */

/** The path of the MCP endpoint under `{base_url}` (CONTRACT "Live paths"). */
export const MCP_ENDPOINT_PATH = '/mcp';

/** `{base_url}/mcp`; `baseUrl` carries no trailing slash (the generator strips it). */
export function mcpEndpointOf(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${MCP_ENDPOINT_PATH}`;
}

/**
 * RFC 9728 §3.1: the metadata of a resource lives at its origin with
 * `/.well-known/oauth-protected-resource` inserted "between the host component and the path
 * and/or query components". A resource without a path gets the bare well-known URL.
 */
export function protectedResourceMetadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}${url.search}`;
}

/** The issuer's userinfo path (OpenID Connect Core §5.3); its metadata builds the URL from it. */
export const USERINFO_PATH = '/oauth/userinfo';

/** `{issuer}/oauth/userinfo`, as the issuer's metadata advertises it. */
export function userinfoEndpointOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}${USERINFO_PATH}`;
}
