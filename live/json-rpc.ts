/**
 * JSON-RPC error answers the live core writes itself, before or instead of the MCP SDK:
 * the transport-level refusals (403, 405, 408, 413, parse errors) and the tool-call checks
 * that must be JSON-RPC errors rather than tool results (an unknown tool; a lookup batch
 * over the limit: UCP catalog MCP binding, "Return -32602 (Invalid params) for requests
 * exceeding batch size limits").
 */
import { MAX_LOOKUP_IDS } from './catalog-schemas.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** The SDK's code for transport refusals (bad Origin, unsupported protocol version). */
export const SERVER_ERROR = -32000;

export type JsonRpcId = string | number | null;

export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: JsonRpcId = null,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, headers });
}

interface ToolCallShape {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: { catalog?: { ids?: unknown } } };
}

/** The JSON-RPC error a tools/call deserves before the SDK sees it, if any. */
export function screenToolCall(message: unknown, tools: readonly string[]): Response | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const call = message as ToolCallShape;
  if (call.method !== 'tools/call' || (typeof call.id !== 'string' && typeof call.id !== 'number'))
    return undefined;
  const name = call.params?.name;
  if (typeof name === 'string' && !tools.includes(name)) {
    return jsonRpcError(200, INVALID_PARAMS, `Unknown tool: ${name.slice(0, 100)}`, call.id);
  }
  const ids = call.params?.arguments?.catalog?.ids;
  if (name === 'lookup_catalog' && Array.isArray(ids) && ids.length > MAX_LOOKUP_IDS) {
    return jsonRpcError(
      200,
      INVALID_PARAMS,
      `catalog.ids holds ${ids.length} ids; at most ${MAX_LOOKUP_IDS} per request`,
      call.id,
    );
  }
  return undefined;
}
