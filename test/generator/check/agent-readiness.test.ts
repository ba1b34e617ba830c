/**
 * The agent-readiness probes end to end: the sample merchant built in model (a) (its own
 * host, the catalog under /api), written to a directory and served by preview with the
 * live handler. `check` must reach level L5 with every probe the bundle answers passing;
 * the page URLs negotiate Markdown with q-values; and in Chromium the landing page's one
 * script registers the WebMCP tools with an init-script shim that records them, and the
 * tools answer from the live UCP endpoint.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentCard, type Message, type Part, Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../../../generator/build.js';
import { encodeArtifact } from '../../../generator/bundle-file-encoding.js';
import { checkTarget } from '../../../generator/check/check-target.js';
import { silentLogger } from '../../../generator/logger.js';
import { startPreviewServer } from '../../../generator/preview/server.js';
import { BROWSER, BROWSER_SKIP_REASON, launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { requires } from '../../helpers/requirements.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SITE = 'https://agents.pomona-juice.example';
let dir = '';
let preview: { url: string; close(): Promise<void> } | undefined;

/** The sample merchant built (with these URL flags) and written to a fresh directory. */
async function buildSampleDir(flags: Record<string, string>): Promise<string> {
  const result = await build({
    configPath: 'catalog.config.json',
    out: join(ROOT, 'dist-never-written'),
    cwd: ROOT,
    flags,
    write: false,
    logger: silentLogger,
    now: () => new Date('2026-11-21T12:00:00.000Z'),
  });
  const target = await mkdtemp(join(tmpdir(), 'agent-readiness-'));
  for (const artifact of result.artifacts) {
    const file = join(target, artifact.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, encodeArtifact(artifact));
  }
  return target;
}

beforeAll(async () => {
  dir = await buildSampleDir({ site_url: SITE, base_url: `${SITE}/api` });
  preview = await startPreviewServer({ dir, port: 0, host: '127.0.0.1', logger: silentLogger });
}, 60_000);

afterAll(async () => {
  await preview?.close();
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('check on a model (a) bundle with the live handler', () => {
  test('reaches L5 with every probe the bundle answers passing', async () => {
    const result = await checkTarget(dir, { cwd: ROOT });
    expect(result.problems).toEqual([]);
    const status = Object.fromEntries(result.probes.map((probe) => [probe.id, probe.status]));
    for (const id of [
      'robotsTxt',
      'sitemap',
      'linkHeaders',
      'markdownNegotiation',
      'robotsTxtAiRules',
      'contentSignals',
      'apiCatalog',
      'oauthDiscovery',
      'oauthProtectedResource',
      'mcpServerCard',
      'a2aAgentCard',
      'agentSkills',
      'ard',
      'authMd',
      'webMcp',
    ]) {
      expect(status[id], id).toBe('pass');
    }
    for (const id of ['x402', 'mpp', 'dns', 'webBotAuth']) expect(status[id], id).toBe('not applicable');
    expect(result.level).toBe(5);
  }, 60_000);

  test('the page URLs negotiate Markdown by q-value, with Vary: Accept on both forms', async () => {
    const get = (path: string, accept: string) => fetch(`${preview?.url}${path}`, { headers: { accept } });
    const markdown = await get('/api/', 'text/html;q=0.5, text/markdown');
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.headers.get('vary')).toBe('Accept');
    expect(Number(markdown.headers.get('x-markdown-tokens'))).toBeGreaterThan(100);
    // The usage terms the static forms carry, on the negotiated answer too.
    const page = await get('/api/index.md', '*/*');
    for (const name of ['content-usage', 'tdm-reservation', 'ratelimit-policy']) {
      expect(page.headers.get(name), name).not.toBeNull();
      expect(markdown.headers.get(name), name).toBe(page.headers.get(name));
    }
    expect(await markdown.text()).toMatch(/^# Pomona Juice Co\. Catalog API/);
    const html = await get('/', 'text/html,text/markdown;q=0.9');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('vary')).toBe('Accept');
    expect(html.headers.get('link')).toContain('</index.md>; rel="alternate"; type="text/markdown"');
    expect((await get('/', 'image/png')).status).toBe(406);
    // The twin is a static file too, for a host without functions.
    expect((await get('/index.md', '*/*')).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  });
});

describe('check on a model (b) bundle, the store owning /', () => {
  let storeDir = '';

  beforeAll(async () => {
    // The sample's own config: site_url is the store's origin, so the store owns `/`.
    storeDir = await buildSampleDir({});
  }, 60_000);

  afterAll(async () => {
    if (storeDir !== '') await rm(storeDir, { recursive: true, force: true });
  });

  test("every probe but the homepage ones passes, and those say they judge the store's page", async () => {
    const result = await checkTarget(storeDir, { cwd: ROOT });
    expect(result.problems).toEqual([]);
    for (const probe of result.probes) {
      const homepage = ['linkHeaders', 'markdownNegotiation', 'webMcp'].includes(probe.id);
      expect(probe.judges, probe.id).toBe(homepage ? 'store' : undefined);
      if (homepage) expect(probe.message, probe.id).toMatch(/model \(b\)/);
      else if (!['x402', 'mpp', 'dns', 'webBotAuth'].includes(probe.id))
        expect(probe.status, probe.id).toBe('pass');
    }
    // The bundle's own page answers its part: the Link relations and Markdown negotiation.
    const byId = new Map(result.probes.map((probe) => [probe.id, probe.message]));
    expect(byId.get('linkHeaders')).toMatch(/\/api\/: pass/);
    expect(byId.get('markdownNegotiation')).toMatch(/\/api\/: pass/);
  }, 60_000);
});

describe('the A2A card and the live A2A JSON-RPC binding, through the official A2A client', () => {
  /** The published card, its interface moved from the production address to preview's. */
  async function localCard(): Promise<AgentCard> {
    const card = (await (await fetch(`${preview?.url}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string }[];
    };
    expect(card.supportedInterfaces).toEqual([
      { url: `${SITE}/api/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    card.supportedInterfaces = card.supportedInterfaces.map((item) => ({
      ...item,
      url: `${preview?.url}${new URL(item.url).pathname}`,
    }));
    return card as unknown as AgentCard;
  }

  const part = (content: Part['content'], mediaType: string): Part => ({
    content,
    mediaType,
    filename: '',
    metadata: undefined,
  });
  const message = (messageId: string, parts: Part[]): Message => ({
    messageId,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });

  async function searchOverMcp(query: string): Promise<unknown> {
    const mcp = new McpClient({ name: 'a2a-comparison', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${preview?.url}/api/mcp`)));
    try {
      const result = await mcp.callTool({ name: 'search_catalog', arguments: { catalog: { query } } });
      return result.structuredContent;
    } finally {
      await mcp.close();
    }
  }

  test('SendMessage answers a text query with exactly what search_catalog returns', async () => {
    const client = await new ClientFactory().createFromAgentCard(await localCard());
    const reply = (await client.sendMessage({
      message: message('q1', [part({ $case: 'text', value: 'ginger' }, 'text/plain')]),
    } as never)) as Message;
    const data = reply.parts.find((part) => part.content?.$case === 'data')?.content;
    const expected = await searchOverMcp('ginger');
    expect(data?.$case === 'data' ? data.value : undefined).toEqual(expected);
    expect((expected as { products: unknown[] }).products.length).toBeGreaterThan(0);
  }, 30_000);

  test("a data part carries UCP's search object, and the other core operations get A2A errors", async () => {
    const client = await new ClientFactory().createFromAgentCard(await localCard());
    const search = { query: 'ginger', pagination: { limit: 1 } };
    const reply = (await client.sendMessage({
      message: message('q2', [part({ $case: 'data', value: search }, 'application/json')]),
    } as never)) as Message;
    const data = reply.parts.find((part) => part.content?.$case === 'data')?.content;
    const value = data?.$case === 'data' ? (data.value as { products: unknown[] }) : undefined;
    expect(value?.products).toHaveLength(1);
    await expect(client.getTask({ id: 'none' } as never)).rejects.toThrow(/not found/i);
    const raw = await fetch(`${preview?.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'NoSuchMethod', params: {} }),
    });
    expect(((await raw.json()) as { error: { code: number } }).error.code).toBe(-32601);
  }, 30_000);
});

describe(`WebMCP on the landing page in Chromium (${BROWSER_SKIP_REASON})`, requires(BROWSER), () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
    // The page is loaded at its production address; every request to it goes to preview.
    await browser.context.route(`${SITE}/**`, async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${preview?.url}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const shim = (where: 'document' | 'navigator') => `
    window.__registered = [];
    Object.defineProperty(${where}, 'modelContext', {
      value: { registerTool(tool) { window.__registered.push(tool); return Promise.resolve(); } },
    });`;

  test('registers search_catalog and get_product, which answer from the live UCP endpoint', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(shim('document'));
    await page.goto(`${SITE}/`);
    await page.waitForFunction(
      () => (window as unknown as { __registered: unknown[] }).__registered.length === 2,
    );
    const tools = await page.evaluate(() =>
      (
        window as unknown as { __registered: { name: string; annotations: unknown; inputSchema: unknown }[] }
      ).__registered.map(({ name, annotations, inputSchema }) => ({ name, annotations, inputSchema })),
    );
    expect(tools.map((tool) => tool.name)).toEqual(['search_catalog', 'get_product']);
    for (const tool of tools) expect(tool.annotations).toEqual({ readOnlyHint: true });
    const found = await page.evaluate(async () => {
      const registry = (
        window as unknown as {
          __registered: {
            name: string;
            execute: (input: object) => Promise<{ content: { text: string }[]; isError: boolean }>;
          }[];
        }
      ).__registered;
      const search = registry.find((tool) => tool.name === 'search_catalog');
      const product = registry.find((tool) => tool.name === 'get_product');
      const result = await search?.execute({ query: 'ginger', limit: 2 });
      const products = JSON.parse(result?.content[0]?.text ?? '{}').products as {
        id: string;
        title: string;
      }[];
      const one = await product?.execute({ id: products[0]?.id ?? '' });
      return {
        isError: result?.isError,
        titles: products.map((p) => p.title),
        one: JSON.parse(one?.content[0]?.text ?? '{}'),
      };
    });
    expect(found.isError).toBe(false);
    expect(found.titles.length).toBeGreaterThan(0);
    expect(found.titles.length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(found.one)).toContain(found.titles[0]);
    expect(errors).toEqual([]);
    expect(browser.blockedRequests).toEqual([]);
  }, 60_000);

  test('falls back to navigator.modelContext where only that exists', async () => {
    const page = await browser.context.newPage();
    await page.addInitScript(shim('navigator'));
    await page.goto(`${SITE}/`);
    await page.waitForFunction(
      () => (window as unknown as { __registered: unknown[] }).__registered.length === 2,
    );
  }, 60_000);
});
