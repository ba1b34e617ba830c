/**
 * The A2A endpoint's transport rules and bad input, sent as raw HTTP requests to the live
 * core: A2A 1.0's JSON-RPC binding (`SendMessage` and the core operations the SDK answers),
 * the version service parameter, and the limits every live route keeps (405, 415, 413, a
 * body that never ends), never a 5xx and never a stack trace.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleLiveBundle, type LiveBundle, liveFetch } from './live-bundle.js';

let bundle: LiveBundle;
let call: ReturnType<typeof liveFetch>;

beforeAll(async () => {
  // The whole sample bundle: the endpoint reads the published agent card.
  bundle = await buildSampleLiveBundle();
  call = liveFetch(bundle, { maxBytes: 64 * 1024, deadlineMs: 300 });
}, 60_000);

const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

function post(body: BodyInit, headers: Record<string, string> = HEADERS): Promise<Response> {
  return call(`${bundle.baseUrl}/a2a`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
}

const rpc = (method: string, params: unknown, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const textMessage = (text: string) => ({
  message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text }] },
});

async function rpcError(response: Response): Promise<number> {
  const text = await response.text();
  expect(response.status).toBe(200);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return (JSON.parse(text) as { error: { code: number } }).error.code;
}

describe('A2A SendMessage over JSON-RPC', () => {
  it('answers a text query with an agent message whose data part is the search result', async () => {
    const response = await post(rpc('SendMessage', textMessage('')));
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as {
      result: { message: { role: string; parts: { data?: { products: unknown[] }; text?: string }[] } };
    };
    expect(result.message.role).toBe('ROLE_AGENT');
    const data = result.message.parts.find((part) => part.data !== undefined)?.data;
    expect(data?.products.length).toBeGreaterThan(0);
    // The text part mirrors the data as JSON, as the MCP tool's text block does.
    const text = result.message.parts.find((part) => part.text !== undefined)?.text ?? '';
    expect(JSON.parse(text)).toEqual(data);
  });

  it('refuses an invalid search object in a data part, and an unknown method', async () => {
    const bad = { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ data: { query: 42 } }] } };
    expect(await rpcError(await post(rpc('SendMessage', bad)))).toBe(-32602);
    expect(await rpcError(await post('{"jsonrpc": "2.0",'))).toBe(-32700);
    expect(await rpcError(await post(rpc('SendMessage', textMessage('x'.repeat(5000)))))).toBe(-32602);
    const forged = {
      message: {
        messageId: 'm3',
        role: 'ROLE_USER',
        parts: [{ data: { pagination: { cursor: 'forged' } } }],
      },
    };
    expect(await rpcError(await post(rpc('SendMessage', forged)))).toBe(-32602);
    expect(await rpcError(await post(rpc('NoSuchMethod', {})))).toBe(-32601);
  });

  it('answers GetTask for an unknown task and streaming with A2A errors, and a batch with -32600', async () => {
    expect(await rpcError(await post(rpc('GetTask', { id: 'unknown' })))).toBe(-32001);
    expect(await rpcError(await post(rpc('SendStreamingMessage', textMessage('x'))))).toBeLessThan(0);
    expect(await rpcError(await post(`[${rpc('SendMessage', textMessage('x'))}]`))).toBe(-32600);
  });

  it('refuses a client that does not ask for A2A 1.0 (no A2A-Version means 0.3)', async () => {
    const response = await post(rpc('SendMessage', textMessage('x')), { 'content-type': 'application/json' });
    expect(await rpcError(response)).toBe(-32009);
  });
});

describe('the A2A endpoint keeps the live limits', () => {
  it('answers GET with 405 and Allow: POST, and another media type with 415', async () => {
    const get = await call(`${bundle.baseUrl}/a2a`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post('{}', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('refuses a body over 64 KiB with 413 and cuts off a body that never ends', async () => {
    expect((await post(`"${'x'.repeat(70 * 1024)}"`)).status).toBe(413);
    const never = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
      },
    });
    expect((await post(never)).status).toBe(408);
  });
});
