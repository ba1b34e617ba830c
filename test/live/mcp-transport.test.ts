/**
 * The MCP endpoint's transport rules and bad input, sent as raw HTTP requests to the core:
 * every malformed request gets a JSON-RPC error or a 4xx within a bounded time, never a
 * 5xx and never a stack trace; the Origin is validated; the stateless endpoint serves a
 * request without a prior initialize and answers GET with 405.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type LiveBundle, liveFetch } from './live-bundle.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';

let bundle: LiveBundle;
let call: ReturnType<typeof liveFetch>;
const DEADLINE_MS = 300;

beforeAll(async () => {
  bundle = await syntheticLiveBundle(30);
  call = liveFetch(bundle, { maxBytes: 64 * 1024, deadlineMs: DEADLINE_MS });
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

function post(body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return call(`${bundle.baseUrl}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A JSON-RPC request, or a notification when `id` is null. */
function rpc(method: string, params?: unknown, id: number | null = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    ...(id === null ? {} : { id }),
    method,
    ...(params ? { params } : {}),
  });
}

async function expectClientError(response: Response): Promise<string> {
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return text;
}

async function expectRpcError(response: Response, status: number, code: number): Promise<void> {
  const text = await expectClientError(response);
  expect(response.status).toBe(status);
  expect((JSON.parse(text) as { error: { code: number } }).error.code).toBe(code);
}

describe('the MCP endpoint refuses what it must', () => {
  it('answers malformed JSON with a parse error', async () => {
    await expectRpcError(await post('{"jsonrpc": "2.0", '), 400, -32700);
  });

  it('answers JSON that is not a JSON-RPC message with a JSON-RPC error', async () => {
    const response = await post(JSON.stringify({ hello: 'world' }));
    expect(response.status).toBe(400);
    expect(
      (JSON.parse(await expectClientError(response)) as { error: { code: number } }).error.code,
    ).toBeLessThan(0);
  });

  it('refuses a JSON-RPC batch (removed in 2025-06-18)', async () => {
    await expectRpcError(await post(`[${rpc('ping')},${rpc('ping', undefined, 2)}]`), 400, -32600);
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    await expectRpcError(
      await post(rpc('tools/call', { name: 'delete_everything', arguments: {} })),
      200,
      -32602,
    );
  });

  it('answers a lookup batch over the limit with JSON-RPC -32602', async () => {
    const ids = Array.from({ length: 51 }, (_, index) => `p${index}`);
    await expectRpcError(
      await post(rpc('tools/call', { name: 'lookup_catalog', arguments: { catalog: { ids } } })),
      200,
      -32602,
    );
  });

  it('answers wrong argument types with a tool error result', async () => {
    for (const catalog of [
      { query: 5 },
      { pagination: { limit: 'ten' } },
      { filters: { price: { max: -1 } } },
      'text',
    ]) {
      const response = await post(rpc('tools/call', { name: 'search_catalog', arguments: { catalog } }));
      const body = JSON.parse(await expectClientError(response)) as {
        result?: { isError?: boolean };
        error?: unknown;
      };
      expect(body.result?.isError ?? body.error !== undefined, JSON.stringify(catalog)).toBe(true);
    }
  });

  it('refuses every catalog tool called without "catalog", which UCP 2026-04-08 requires, and lists it as required', async () => {
    const listed = (await (await post(rpc('tools/list'))).json()) as {
      result: { tools: { name: string; inputSchema: { required?: string[] } }[] };
    };
    for (const name of ['search_catalog', 'lookup_catalog', 'get_product']) {
      const tool = listed.result.tools.find((entry) => entry.name === name);
      expect(tool?.inputSchema.required, name).toContain('catalog');
      for (const args of [{}, { meta: {} }]) {
        const response = await post(rpc('tools/call', { name, arguments: args }));
        const body = JSON.parse(await expectClientError(response)) as {
          result?: { isError?: boolean; structuredContent?: unknown };
          error?: { code: number };
        };
        // A tool error result or JSON-RPC -32602, never products.
        expect(body.result?.structuredContent, name).toBeUndefined();
        expect(body.result?.isError === true || body.error?.code === -32602, name).toBe(true);
      }
    }
  });

  it('refuses a 1 MB query with 413 before parsing it', async () => {
    const query = 'ginger '.repeat(150_000);
    const response = await post(
      rpc('tools/call', { name: 'search_catalog', arguments: { catalog: { query } } }),
    );
    await expectClientError(response);
    expect(response.status).toBe(413);
  });

  it('clamps a limit of 10^9 to the largest page', async () => {
    const response = await post(
      rpc('tools/call', { name: 'search_catalog', arguments: { catalog: { pagination: { limit: 1e9 } } } }),
    );
    const body = JSON.parse(await expectClientError(response)) as {
      result: { structuredContent: { products: unknown[]; pagination: { total_count: number } } };
    };
    expect(body.result.structuredContent.pagination.total_count).toBe(30);
    expect(body.result.structuredContent.products).toHaveLength(30);
  });

  it('refuses a body that is not UTF-8 with 400', async () => {
    const bytes = new TextEncoder().encode(rpc('ping'));
    const broken = new Uint8Array([...bytes.slice(0, 10), 0xff, 0xfe, ...bytes.slice(10)]);
    const response = await post(broken);
    await expectClientError(response);
    expect(response.status).toBe(400);
  });

  it('cuts off a body that never ends with 408 within the deadline', async () => {
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
      },
    });
    const started = Date.now();
    const response = await post(endless);
    await expectClientError(response);
    expect(response.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2000);
  });

  it('answers GET and DELETE with 405 naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await call(`${bundle.baseUrl}/mcp`, {
        method,
        headers: { accept: 'text/event-stream' },
      });
      await expectClientError(response);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers a notification with 202 and no body', async () => {
    const response = await post(rpc('notifications/initialized', undefined, null));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('refuses an unknown MCP-Protocol-Version with 400', async () => {
    const response = await post(rpc('ping'), { 'mcp-protocol-version': '1999-01-01' });
    await expectClientError(response);
    expect(response.status).toBe(400);
  });

  it('refuses a foreign Origin with 403 and accepts the site, a configured and a missing one', async () => {
    expect((await post(rpc('ping'), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(rpc('ping'), { origin: 'http://127.0.0.1:8080' })).status).toBe(403);
    for (const origin of [bundle.siteUrl, 'https://app.example']) {
      expect((await post(rpc('ping'), { origin })).status, origin).toBe(200);
    }
    expect((await post(rpc('ping'))).status).toBe(200);
  });

  it('accepts a loopback Origin on a local run', async () => {
    const request = new Request('http://127.0.0.1:8080/mcp', {
      method: 'POST',
      headers: { ...HEADERS, origin: 'http://localhost:8080' },
      body: rpc('ping'),
    });
    const { handleLiveRequest } = await import('../../live/handle-live-request.js');
    const response = await handleLiveRequest(request, bundle.context);
    expect(response?.status).toBe(200);
  });
});

describe('the MCP endpoint serves stateless requests', () => {
  it('answers ping with an empty result, without a session id', async () => {
    const response = await post(rpc('ping'));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('lists tools without a prior initialize, and without a token', async () => {
    const response = await post(rpc('tools/list'));
    const body = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((tool) => tool.name).sort()).toEqual([
      'get_customer_profile',
      'get_product',
      'lookup_catalog',
      'search_catalog',
    ]);
  });

  it('announces the rate limit and the usage policy on every answer', async () => {
    for (const response of [await post(rpc('ping')), await post('{')]) {
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
      expect(response.headers.get('content-usage')).toBe('train-ai=n');
    }
  });

  it('leaves every other path to the static files', async () => {
    const { handleLiveRequest } = await import('../../live/handle-live-request.js');
    for (const path of ['/', '/mcp/', '/mcpx', '/ucp/catalog', '/ucp/catalog/delete', '/agent-catalog']) {
      expect(
        await handleLiveRequest(new Request(`${bundle.baseUrl}${path}`), bundle.context),
        path,
      ).toBeUndefined();
    }
  });
});
