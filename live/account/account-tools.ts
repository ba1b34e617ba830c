/**
 * Where the live handler meets the account pieces: the guard for a deployment (one per
 * issuer and endpoint for the life of the process, so the verifier's JWKS cache outlives a
 * request even where a shell builds its context per request), and the registration of
 * `get_customer_profile` on a request's MCP server with the token the guard verified.
 *
 * A refused or missing token never reaches the tool: the guard answers at the HTTP level
 * first. So inside the tool only the issuer's userinfo can fail, and that failure is a tool
 * result with `isError: true` (MCP: errors of the tool itself are results, so the model sees
 * them), never a 5xx.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LiveContext } from '../live-context.js';
import { type AccountGuard, createAccountGuard } from './account-guard.js';
import {
  CUSTOMER_PROFILE_TOOL,
  CustomerProfileError,
  customerProfileResult,
  getCustomerProfile,
} from './customer-profile.js';

const guards = new Map<string, AccountGuard>();
const movedClockGuards = new WeakMap<() => number, Map<string, AccountGuard>>();

/** The guard for this deployment's issuer and MCP endpoint (and the context's clock, when a test moves it). */
export function accountGuardFor(context: LiveContext): AccountGuard {
  const { issuer, mcpEndpoint: endpoint } = context.settings;
  const { now } = context;
  let cache = guards;
  if (now !== undefined) {
    cache = movedClockGuards.get(now) ?? new Map<string, AccountGuard>();
    movedClockGuards.set(now, cache);
  }
  const key = `${issuer} ${endpoint}`;
  const guard = cache.get(key) ?? createAccountGuard({ issuer, endpoint, ...(now ? { now } : {}) });
  cache.set(key, guard);
  return guard;
}

/** Adds `get_customer_profile`; `token` is the verified bearer token, absent when none was checked. */
export function registerAccountTools(
  server: McpServer,
  context: LiveContext,
  token: string | undefined,
): void {
  server.registerTool(
    CUSTOMER_PROFILE_TOOL.name,
    {
      title: CUSTOMER_PROFILE_TOOL.title,
      description: `${CUSTOMER_PROFILE_TOOL.description} Send a bearer token for this endpoint with the scopes ${CUSTOMER_PROFILE_TOOL.scopes.join(' ')}.`,
      inputSchema: z.object({}).strict(),
      outputSchema: z.object({
        name: z.string().nullable(),
        email: z.string().nullable(),
        email_verified: z.boolean().optional(),
      }),
      annotations: { title: CUSTOMER_PROFILE_TOOL.title, ...CUSTOMER_PROFILE_TOOL.annotations },
    },
    async () => {
      try {
        if (token === undefined) throw new CustomerProfileError('invalid_token', 'no access token was sent');
        const profile = await getCustomerProfile({
          token,
          issuer: context.settings.issuer,
          fetch: context.fetch ?? fetch,
        });
        return customerProfileResult(profile);
      } catch (error) {
        const message =
          error instanceof CustomerProfileError ? error.message : 'the profile could not be read';
        return { isError: true, content: [{ type: 'text' as const, text: message }] };
      }
    },
  );
}
