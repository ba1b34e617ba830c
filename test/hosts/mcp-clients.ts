/**
 * The official MCP SDK client (`Client` over `StreamableHTTPClientTransport`) connected to
 * each server of an engine test, and a call that asks every server the same tool question
 * and requires the same structured answer from each. Shared by `live.test.ts` (the sample
 * and hostile bundles) and `large-store.test.ts` (100,000 products).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

export interface Server {
  name: string;
  url: string;
}

export interface Connected extends Server {
  client: Client;
}

export interface ToolAnswer {
  products?: { id: string }[];
  product?: { id: string };
  pagination?: { cursor?: string };
}

/** Connects to `{server}{base}/mcp`; every request the transport makes is bounded by `limitMs`. */
export async function connect(server: Server, base: string, limitMs = 30_000): Promise<Connected> {
  const client = new Client({ name: 'agent-catalog-host-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${base}/mcp`), {
    fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(limitMs) }),
  });
  await client.connect(transport);
  return { ...server, client };
}

export async function callTool(
  server: Connected,
  name: string,
  catalog: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = await server.client.callTool({ name, arguments: { catalog } });
  expect(result.isError ?? false, `${name} ${JSON.stringify(catalog)} on ${server.name}`).toBe(false);
  return result.structuredContent as ToolAnswer;
}

/** Calls one tool on every server and requires the same structured answer from each; returns it. */
export async function callEverywhere(
  servers: readonly Connected[],
  name: string,
  catalog: Record<string, unknown>,
): Promise<ToolAnswer> {
  const answers = await Promise.all(servers.map((server) => callTool(server, name, catalog)));
  const [reference, ...others] = answers;
  others.forEach((answer, index) => {
    expect(
      answer,
      `${name} ${JSON.stringify(catalog)}: ${servers[index + 1]?.name} vs ${servers[0]?.name}`,
    ).toEqual(reference);
  });
  if (reference === undefined) throw new Error('no server');
  return reference;
}

/** Searches every server for `product.name` and requires its id among the first 50 answers. */
export async function expectFoundByName(
  servers: readonly Connected[],
  product: { id: string; name: string },
): Promise<void> {
  const byName = await callEverywhere(servers, 'search_catalog', {
    query: product.name,
    pagination: { limit: 50 },
  });
  expect(
    byName.products?.map((item) => item.id),
    product.name,
  ).toContain(product.id);
}
