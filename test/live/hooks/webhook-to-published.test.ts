/**
 * Issue 32's loop end to end on loopback: a bundle served by preview (the Node shell `serve`
 * shares) with the Shopify receiver on, a price change in the store, the store's signed
 * `products/update` delivery, the coalesced trigger to a stand-in build hook that rebuilds and
 * re-publishes the bundle (as the regenerate workflow does), and the new price read back from
 * `/agent-catalog`, from MCP `search_catalog` through the official SDK client, and from the
 * product's Markdown page. The time from delivery to published is printed, not asserted
 * (performance belongs in `npm run bench`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { silentLogger } from '../../../generator/logger.js';
import { startPreviewServer } from '../../../generator/preview/server.js';
import type { TriggerPolicy } from '../../../live/hooks/trigger-scheduler.js';
import { makeWorkspace } from '../../generator/pipeline/helpers.js';
import { deliver, SHOPIFY_SECRET, shopifyDelivery } from './deliveries.js';

const POLICY: TriggerPolicy = { quietMs: 200, minIntervalMs: 1_000, maxDelayMs: 1_000 };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A Netlify-style build hook on loopback that rebuilds and re-publishes the bundle when called. */
async function startBuildHook(
  rebuild: () => Promise<void>,
): Promise<{ url: string; published: Promise<number> }> {
  let done: (at: number) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const published = new Promise<number>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      rebuild().then(() => done(performance.now()), failed);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/build_hooks/e2e`, published };
}

async function searchOverMcp(url: string, query: string): Promise<unknown> {
  const mcp = new McpClient({ name: 'webhook-e2e', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    return (await mcp.callTool({ name: 'search_catalog', arguments: { catalog: { query } } }))
      .structuredContent;
  } finally {
    await mcp.close();
  }
}

describe('a price change delivered as a signed Shopify webhook', () => {
  it('when the store changes a price and says so then the re-published bundle answers the new price everywhere', async () => {
    const { dir, cleanup } = await makeWorkspace('sample-small');
    closers.push(cleanup);
    const options: BuildOptions = {
      configPath: 'catalog.config.json',
      out: 'dist',
      cwd: dir,
      write: true,
      logger: silentLogger,
    };
    await build(options);
    const hook = await startBuildHook(async () => {
      await build(options);
    });
    const vars: Record<string, string> = {
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_REBUILD_URL: hook.url,
    };
    const server = await startPreviewServer({
      dir: join(dir, 'dist'),
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      env: (name) => vars[name],
      hookPolicy: POLICY,
    });
    closers.push(() => server.close());

    const before = (await (await fetch(`${server.url}/agent-catalog`)).json()) as {
      products: { slug: string; price: string }[];
    };
    expect(before.products.find((product) => product.slug === 'green-glow')?.price).toBe('9.50');

    // The store changes the price, then announces it.
    const upstream = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(upstream, 'utf8')) as {
      products: { handle: string; variants: { price: string }[] }[];
    };
    for (const variant of data.products.find((product) => product.handle === 'green-glow')?.variants ?? [])
      variant.price = '11.25';
    await writeFile(upstream, JSON.stringify(data));
    const sent = performance.now();
    const answer = await deliver(
      `${server.url}/hooks/shopify`,
      shopifyDelivery({ body: JSON.stringify(data.products[0]) }),
    );
    expect(answer.status).toBe(200);
    const publishedAt = await hook.published;
    console.info(`delivery to published: ${Math.round(publishedAt - sent)} ms (sample-small, 4 products)`);

    const after = (await (await fetch(`${server.url}/agent-catalog`)).json()) as {
      products: { slug: string; price: string }[];
    };
    expect(after.products.find((product) => product.slug === 'green-glow')?.price).toBe('11.25');
    const found = (await searchOverMcp(server.url, 'Green Glow')) as {
      products: { handle?: string; price_range?: { min: { amount: number } } }[];
    };
    const product = found.products.find((item) => item.handle === 'green-glow');
    expect(product?.price_range?.min.amount).toBe(1125);
    const page = await (await fetch(`${server.url}/kb/products/green-glow.md`)).text();
    expect(page).toContain('11.25');
    expect(page).not.toContain('9.50');
  }, 60_000);
});
