/**
 * The MCP endpoint's gate for account tools. The catalog tools stay public; a JSON-RPC
 * request (or batch) that calls `get_customer_profile` must carry a bearer token for the
 * endpoint itself (RFC 8707 audience) with the tool's scopes, and is answered at the HTTP
 * level otherwise: 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`,
 * or 403 `insufficient_scope` (MCP authorization, RFC 6750, RFC 9728). That 401 is what
 * starts an MCP client's OAuth flow. Build one guard per process: its verifier caches the
 * issuer's JWKS.
 */
import { authenticateBearer, type BearerOutcome } from '../../access-token/bearer-challenge.js';
import { protectedResourceMetadataUrlOf } from '../../access-token/resource-urls.js';
import { createAccessTokenVerifier } from '../../access-token/verify-access-token.js';
import { CUSTOMER_PROFILE_TOOL } from './customer-profile.js';

export interface AccountGuardOptions {
  /** The issuer identifier (`auth_url`). */
  issuer: string;
  /** The MCP endpoint's URL, `{base_url}/mcp`: the resource its tokens must name. */
  endpoint: string;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/** Checks a request's parsed body; undefined when it calls no account tool (nothing to check). */
export type AccountGuard = (request: Request, body: unknown) => Promise<BearerOutcome | undefined>;

/** True when the JSON-RPC message, or any message of a batch, calls the tool `name`. */
export function callsTool(body: unknown, name: string): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    if (typeof message !== 'object' || message === null) return false;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) return false;
    return (params as { name?: unknown }).name === name;
  });
}

export function createAccountGuard(options: AccountGuardOptions): AccountGuard {
  const verify = createAccessTokenVerifier({
    issuer: options.issuer,
    resource: options.endpoint,
    ...(options.now ? { now: options.now } : {}),
  });
  const guard = {
    verify,
    resourceMetadataUrl: protectedResourceMetadataUrlOf(options.endpoint),
    scopes: CUSTOMER_PROFILE_TOOL.scopes,
  };
  return async (request, body) =>
    callsTool(body, CUSTOMER_PROFILE_TOOL.name) ? authenticateBearer(request, guard) : undefined;
}
