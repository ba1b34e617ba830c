/**
 * A tiny MCP server on loopback that protects `get_customer_profile` the way the bundle's live
 * handler does: the official SDK's web-standard Streamable HTTP transport (stateless, one
 * server per request), a public tool beside the protected one, the shared bearer guard in
 * front of the protected tool's HTTP request, and the protected-resource metadata at the
 * path-inserted well-known URL. It stands in for the live handler (issue 20) until that is
 * on main; the tool's logic is the real module.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { protectedResourceMetadataUrlOf } from '../../../access-token/resource-urls.js';
import { type AccountGuard, createAccountGuard } from '../../../live/account/account-guard.js';
import {
  CUSTOMER_PROFILE_TOOL,
  customerProfileResult,
  getCustomerProfile,
} from '../../../live/account/customer-profile.js';
import { type FetchServer, serveFetchHandler } from '../../helpers/fetch-server.js';

export interface McpStandIn extends FetchServer {
  /** `{origin}/mcp`, the resource identifier. */
  endpoint: string;
  /** Points the stand-in at the issuer once it runs (the issuer needs the endpoint first). */
  trust(issuer: string, now: () => number): void;
}

function createServer(issuer: string, token: string | undefined): McpServer {
  const server = new McpServer({ name: 'stand-in', version: '1.0.0' });
  server.registerTool(
    'ping_catalog',
    { description: 'public', annotations: { readOnlyHint: true } },
    async () => ({
      content: [{ type: 'text', text: 'pong' }],
    }),
  );
  server.registerTool(
    CUSTOMER_PROFILE_TOOL.name,
    { description: CUSTOMER_PROFILE_TOOL.description, annotations: CUSTOMER_PROFILE_TOOL.annotations },
    async () => customerProfileResult(await getCustomerProfile({ token: token ?? '', issuer, fetch })),
  );
  return server;
}

export async function startMcpStandIn(): Promise<McpStandIn> {
  let trusted: { issuer: string; guard: AccountGuard } | undefined;
  let endpoint = '';
  const handler = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === new URL(protectedResourceMetadataUrlOf(endpoint)).pathname) {
      return Response.json({
        resource: endpoint,
        authorization_servers: [trusted?.issuer],
        scopes_supported: CUSTOMER_PROFILE_TOOL.scopes,
        bearer_methods_supported: ['header'],
      });
    }
    if (path !== '/mcp' || !trusted) return new Response('not found', { status: 404 });
    const body: unknown = request.method === 'POST' ? await request.json() : undefined;
    const auth = await trusted.guard(request, body);
    if (auth && !auth.ok) return auth.response;
    const token = auth?.token;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await createServer(trusted.issuer, token).connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };
  const served = await serveFetchHandler(handler);
  endpoint = `${served.origin}/mcp`;
  return {
    ...served,
    endpoint,
    trust(issuer, now) {
      trusted = { issuer, guard: createAccountGuard({ issuer, endpoint, now }) };
    },
  };
}
