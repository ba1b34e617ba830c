/**
 * A2A 1.0 over JSON-RPC at `{base_url}/a2a`, built on the official A2A JavaScript SDK
 * (`@a2a-js/sdk`): its `DefaultRequestHandler` and `JsonRpcTransportHandler` answer every
 * core operation the binding must implement (`SendMessage`, `GetTask`, `ListTasks`,
 * `CancelTask`, `SubscribeToTask`, the push-notification configs, `GetExtendedAgentCard`),
 * with the SDK's own errors for what the card does not offer (no streaming, no push, no
 * extended card). The agent is the catalog's search: a message's `data` part holding a
 * UCP catalog search object, or else its text as the query, is answered with one agent
 * message whose `data` part is exactly what `search_catalog` returns, mirrored as JSON
 * text, as the MCP tool mirrors it. Answers are messages, never tasks, so nothing is kept
 * between requests (the edge is stateless); the in-memory task store stays empty.
 * The search runs before the SDK is handed the request, so a bad search object or cursor
 * is JSON-RPC -32602 naming the field, and a broken bundle the core's 503, rather than a
 * failed execution. Web-standard Request/Response only, like the rest of the core.
 */
import { AgentCard, type Message, Role } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  validateVersion,
} from '@a2a-js/sdk/server';
import { CatalogRequestError, searchCatalog } from './catalog-operations.js';
import { type SearchRequest, searchRequestSchema } from './catalog-schemas.js';
import type { LiveContext } from './live-context.js';
import type { LiveData } from './live-data.js';
import { type BodyLimits, readBodyText } from './read-body.js';

/** The agent card the bundle publishes; its supportedInterfaces name this endpoint. */
export const AGENT_CARD_ASSET = '.well-known/agent-card.json';
/** A2A's service parameter naming the protocol version the client speaks. */
const VERSION_HEADER = 'a2a-version';

type JsonRpcId = string | number | null;
type Search = { request: SearchRequest } | { fault: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The search a `SendMessage` request asks for, read from its JSON (A2A 1.0: a part is
 * `{text}` or `{data}`): the first data part's object, else the text parts joined as
 * `query`. Undefined for any other method, which the SDK answers alone.
 */
function searchOf(rpc: Record<string, unknown>): Search | undefined {
  if (rpc.method !== 'SendMessage' || !isObject(rpc.params)) return undefined;
  const message = rpc.params.message;
  const parts = isObject(message) && Array.isArray(message.parts) ? message.parts : [];
  const data = parts.find((part) => isObject(part) && part.data !== undefined);
  const texts = parts.flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : []));
  const parsed = searchRequestSchema.safeParse(
    isObject(data) ? data.data : { query: texts.join(' ').trim() },
  );
  if (parsed.success) return { request: parsed.data };
  const where = parsed.error.issues[0]?.path.join('.');
  return { fault: `the message is not a UCP catalog search${where ? ` (at ${where})` : ''}` };
}

/** The agent: publishes the search's answer as one message, the reply to the one it was sent. */
function answeringExecutor(result: unknown): AgentExecutor {
  const part = (content: NonNullable<Message['parts'][number]['content']>) => ({
    content,
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  });
  return {
    async execute(requestContext, eventBus) {
      const reply: Message = {
        messageId: crypto.randomUUID(),
        contextId: requestContext.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [
          part({ $case: 'data', value: result }),
          part({ $case: 'text', value: JSON.stringify(result) }),
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      eventBus.publish(AgentEvent.message(reply));
      eventBus.finished();
    },
    async cancelTask() {
      // Nothing runs after the answer: every reply is a message, never a task.
    },
  };
}

const rpcError = (id: JsonRpcId, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id, error: { code, message } });

function headersOf(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** Parses the body as one JSON-RPC request object, or answers the error JSON-RPC 2.0 gives. */
function parseRequest(text: string): Record<string, unknown> | Response {
  let rpc: unknown;
  try {
    rpc = JSON.parse(text);
  } catch {
    return rpcError(null, -32700, 'the body is not valid JSON');
  }
  // Batches are not part of A2A's binding; refused as every live route refuses them.
  if (Array.isArray(rpc)) return rpcError(null, -32600, 'batches are not supported');
  if (!isObject(rpc)) return rpcError(null, -32600, 'the body is not a JSON-RPC request');
  return rpc;
}

/** Answers one JSON-RPC request at the A2A endpoint. */
export async function handleA2aRequest(
  request: Request,
  context: LiveContext,
  loadData: () => Promise<LiveData>,
  limits: BodyLimits,
): Promise<Response> {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'application/a2a+json')
    return new Response('expected Content-Type: application/json\n', { status: 415 });
  const body = await readBodyText(request, limits);
  if (!body.ok) return new Response(`${body.reason}\n`, { status: body.status });
  const rpc = parseRequest(body.text);
  if (rpc instanceof Response) return rpc;
  const id: JsonRpcId = typeof rpc.id === 'string' || typeof rpc.id === 'number' ? rpc.id : null;
  const cardText = await context.readAsset(AGENT_CARD_ASSET);
  if (cardText === undefined)
    return Response.json({ error: 'the agent card is not available' }, { status: 503 });
  const card = AgentCard.fromJSON(JSON.parse(cardText));
  const callContext = defaultServerCallContextBuilder({
    extensions: undefined,
    user: undefined,
    headers: headersOf(request),
    requestedVersion: request.headers.get(VERSION_HEADER) ?? undefined,
  });
  try {
    // Absent, the version is 0.3, which this 1.0 endpoint refuses (VersionNotSupported).
    validateVersion(callContext.requestedVersion, card, 'JSONRPC');
  } catch (error) {
    return Response.json({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
  }
  const search = searchOf(rpc);
  if (search !== undefined && 'fault' in search) return rpcError(id, -32602, search.fault);
  let result: unknown;
  if (search !== undefined) {
    try {
      result = await searchCatalog(await loadData(), search.request);
    } catch (error) {
      if (error instanceof CatalogRequestError) return rpcError(id, -32602, error.message);
      throw error;
    }
  }
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), answeringExecutor(result));
  const answer = await new JsonRpcTransportHandler(handler).handle(rpc, callContext);
  // The card offers no streaming, so the SDK refuses SendStreamingMessage and
  // SubscribeToTask before a stream exists; a stream here would be a broken promise.
  if (Symbol.asyncIterator in answer) return rpcError(id, -32603, 'streaming is not supported');
  return Response.json(answer);
}
