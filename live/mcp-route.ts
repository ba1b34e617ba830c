/**
 * `{base_url}/mcp`: MCP over Streamable HTTP, stateless (no `Mcp-Session-Id`; a request
 * without a prior `initialize` is served), JSON responses, on the SDK's web-standard
 * transport. Before the SDK sees a request this route checks what the transport spec and
 * the contract ask of the server: the `Origin` (MCP 2025-06-18, Transports, "Servers MUST
 * validate the Origin header on all incoming connections"), the method (POST only: there is
 * no server-initiated stream to GET), the body (size, deadline, UTF-8, JSON, no batch:
 * 2025-06-18 removed JSON-RPC batching), and the tool-call checks of `json-rpc.ts`. Then
 * the account guard: a `tools/call` of `get_customer_profile` without a good token is
 * answered here at the HTTP level (401 / 403 with the Bearer challenge that starts an MCP
 * client's OAuth flow); every other request, `tools/list` included, needs no token.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { KeySetUnavailableError } from '../access-token/verify-access-token.js';
import { callsTool } from './account/account-guard.js';
import { accountGuardFor, registerAccountTools } from './account/account-tools.js';
import { CUSTOMER_PROFILE_TOOL } from './account/customer-profile.js';
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  jsonRpcError,
  PARSE_ERROR,
  SERVER_ERROR,
  screenToolCall,
} from './json-rpc.js';
import type { LiveContext } from './live-context.js';
import type { LiveData } from './live-data.js';
import { createCatalogMcpServer, TOOL_NAMES } from './mcp-tools.js';
import { type BodyLimits, readBodyText } from './read-body.js';

const ALL_TOOLS: readonly string[] = [...TOOL_NAMES, CUSTOMER_PROFILE_TOOL.name];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Absent, the site's own origin, a configured one, or a loopback origin on a local run. */
export function isAllowedOrigin(request: Request, context: LiveContext): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  const { siteOrigin, allowedOrigins } = context.settings;
  if (origin === siteOrigin || allowedOrigins.includes(origin)) return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(request.url).hostname) && LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export async function handleMcpRequest(
  request: Request,
  context: LiveContext,
  loadData: () => Promise<LiveData>,
  limits: BodyLimits,
): Promise<Response> {
  if (!isAllowedOrigin(request, context))
    return jsonRpcError(403, SERVER_ERROR, 'Forbidden: Origin not allowed');
  if (request.method !== 'POST') {
    return jsonRpcError(
      405,
      SERVER_ERROR,
      'Method not allowed: this stateless endpoint answers POST only',
      null,
      {
        Allow: 'POST',
      },
    );
  }
  const body = await readBodyText(request, limits);
  if (!body.ok)
    return jsonRpcError(body.status, body.status === 400 ? PARSE_ERROR : SERVER_ERROR, body.reason);
  let message: unknown;
  try {
    message = JSON.parse(body.text);
  } catch {
    return jsonRpcError(400, PARSE_ERROR, 'Parse error: the body is not JSON');
  }
  if (Array.isArray(message)) {
    return jsonRpcError(
      400,
      INVALID_REQUEST,
      'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 and later)',
    );
  }
  const screened = screenToolCall(message, ALL_TOOLS);
  if (screened) return screened;
  let token: string | undefined;
  const callsAccountTool = callsTool(message, CUSTOMER_PROFILE_TOOL.name);
  if (callsAccountTool && context.settings.issuer === '')
    return jsonRpcError(503, SERVER_ERROR, 'Service unavailable: this bundle names no issuer; rebuild it');
  try {
    const auth = callsAccountTool ? await accountGuardFor(context)(request, message) : undefined;
    if (auth && !auth.ok) return auth.response;
    token = auth?.token;
  } catch (error) {
    if (!(error instanceof KeySetUnavailableError)) throw error;
    // Nothing is known about the token: 503, so the client retries instead of re-authorizing.
    return jsonRpcError(
      503,
      SERVER_ERROR,
      'Service unavailable: the account service cannot be reached',
      null,
      {
        'Retry-After': '30',
      },
    );
  }
  const data = await loadData();
  const server = createCatalogMcpServer(data);
  registerAccountTools(server, context, token);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: message });
  } catch {
    return jsonRpcError(500, INTERNAL_ERROR, 'Internal error');
  } finally {
    void server.close().catch(() => undefined);
  }
}
