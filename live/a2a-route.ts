/**
 * A2A 1.0 over JSON-RPC at `{base_url}/a2a`, built on the official A2A JavaScript SDK
 * (`@a2a-js/sdk`): its `DefaultRequestHandler` and `JsonRpcTransportHandler` answer every
 * core operation the binding requires (A2A 1.0 §9: `SendMessage`, `GetTask`, `ListTasks`,
 * `CancelTask`, `SubscribeToTask`, the push-notification configs, `GetExtendedAgentCard`),
 * with the SDK's own errors for what the card does not offer (no streaming, no push, no
 * extended card). The agent is the catalog's search: a message's `data` part holding a
 * UCP `catalog` search object, or its text as the query, is answered with one agent
 * message whose `data` part is exactly what `search_catalog` returns, mirrored as JSON
 * text, as the MCP tool mirrors it. Answers are messages, never tasks, so nothing is kept
 * between requests (the edge is stateless); the in-memory task store stays empty.
 * Web-standard Request/Response only, like the rest of the core.
 */
import { AgentCard, type Message, Role } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  validateVersion,
} from '@a2a-js/sdk/server';
import { searchCatalog } from './catalog-operations.js';
import { searchRequestSchema } from './catalog-schemas.js';
import type { LiveContext } from './live-context.js';
import type { LiveData } from './live-data.js';
import { type BodyLimits, readBodyText } from './read-body.js';

/** The agent card the bundle publishes; its supportedInterfaces name this endpoint. */
export const AGENT_CARD_ASSET = '.well-known/agent-card.json';
/** A2A 1.0 §3.2.1 (service parameters): the protocol version a client asks for. */
const VERSION_HEADER = 'a2a-version';

/**
 * The same, read from the request's JSON before the SDK sees it (A2A 1.0 JSON: a part is
 * `{text}` or `{data}`), so a search object that breaks UCP's schema is refused with
 * JSON-RPC -32602 naming the field rather than as a failed execution.
 */
function invalidSearchIn(rpc: unknown): string | undefined {
  if (!isObject(rpc) || rpc.method !== 'SendMessage' || !isObject(rpc.params)) return undefined;
  const message = rpc.params.message;
  const parts = isObject(message) && Array.isArray(message.parts) ? message.parts : [];
  const data = parts.find((part) => isObject(part) && part.data !== undefined);
  const texts = parts.flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : []));
  const candidate = isObject(data) ? data.data : { query: texts.join(' ').trim() };
  const parsed = searchRequestSchema.safeParse(candidate);
  if (parsed.success) return undefined;
  const where = parsed.error.issues[0]?.path.join('.');
  return `the message is not a UCP catalog search${where ? ` (at ${where})` : ''}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The search request a message carries: its first data part's object, else its text as `query`. */
function searchRequestOf(message: Message): unknown {
  for (const part of message.parts) {
    if (part.content?.$case === 'data') return part.content.value;
  }
  const text = message.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []));
  return { query: text.join(' ').trim() };
}

function createExecutor(loadData: () => Promise<LiveData>): AgentExecutor {
  return {
    async execute(requestContext, eventBus) {
      const parsed = searchRequestSchema.safeParse(searchRequestOf(requestContext.userMessage));
      if (!parsed.success) {
        const where = parsed.error.issues[0]?.path.join('.') || 'the message';
        throw new RequestMalformedError(`the search request is invalid at ${where}`);
      }
      const result = await searchCatalog(await loadData(), parsed.data);
      const reply: Message = {
        messageId: crypto.randomUUID(),
        contextId: requestContext.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [
          {
            content: { $case: 'data', value: result },
            metadata: undefined,
            filename: '',
            mediaType: 'application/json',
          },
          {
            content: { $case: 'text', value: JSON.stringify(result) },
            metadata: undefined,
            filename: '',
            mediaType: 'application/json',
          },
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

const jsonRpc = (body: unknown, status = 200) => Response.json(body, { status });

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
  let rpc: unknown;
  try {
    rpc = JSON.parse(body.text);
  } catch {
    return jsonRpc({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'the body is not valid JSON' },
    });
  }
  const id = isObject(rpc) && (typeof rpc.id === 'string' || typeof rpc.id === 'number') ? rpc.id : null;
  // JSON-RPC 2.0 batches are not part of A2A's binding; refused as every live route refuses them.
  if (Array.isArray(rpc))
    return jsonRpc({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batches are not supported' },
    });
  const invalid = invalidSearchIn(rpc);
  if (invalid !== undefined)
    return jsonRpc({ jsonrpc: '2.0', id, error: { code: -32602, message: invalid } });
  const cardText = await context.readAsset(AGENT_CARD_ASSET);
  if (cardText === undefined) return jsonRpc({ error: 'the agent card is not available' }, 503);
  const card = AgentCard.fromJSON(JSON.parse(cardText));
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), createExecutor(loadData));
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const callContext = defaultServerCallContextBuilder({
    extensions: undefined,
    user: undefined,
    headers,
    requestedVersion: request.headers.get(VERSION_HEADER) ?? undefined,
  });
  try {
    validateVersion(callContext.requestedVersion, card, 'JSONRPC');
  } catch (error) {
    return jsonRpc({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
  }
  const answer = await new JsonRpcTransportHandler(handler).handle(
    rpc as Record<string, unknown>,
    callContext,
  );
  // Streaming is not offered (capabilities.streaming false), so a stream is never returned;
  // the SDK refuses SendStreamingMessage and SubscribeToTask with UnsupportedOperation.
  if (answer !== null && typeof answer === 'object' && Symbol.asyncIterator in answer)
    return jsonRpc({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32004, message: 'streaming is not supported' },
    });
  return jsonRpc(answer);
}
