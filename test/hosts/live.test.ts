/**
 * The live handler where it runs, proven on the hosts' own engines: the sample bundle and
 * the hostile 300-product bundle are built with the real CLI and served once by `preview`
 * (the Node shell), once by `wrangler pages dev` (the bundle's `_worker.js` on workerd,
 * routed by `_routes.json`) and once by `netlify dev --offline` (the bundle's Functions v2
 * function). The official MCP SDK client must list the tools and find every product by
 * name (on preview; on the engines, the hard-to-match names and a spread), by id and by a
 * price filter, with identical answers from the three; UCP REST and
 * `/.well-known/ucp` likewise. Engine start-up is slow: one engine process per host and
 * bundle, shared by the file's tests; every request is bounded. Independent questions are
 * asked `ASKED_AT_ONCE` at a time (`at-most.ts`: netlify dev answers each on a fresh worker).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AgentCard, type Message, Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinorUnits } from '../../record/decimal-price.js';
import { ensureCompiled } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { requires } from '../helpers/requirements.js';
import { forEachAtMost } from './at-most.js';
import { ENGINES, MCP_CONFORMANCE } from './engines.js';
import { type Connected, callEverywhere, connect, expectFoundByName, type Server } from './mcp-clients.js';
import { buildHostileBundle, buildWith, type Served, serveEverywhere, stopAll } from './served.js';

const CASES = [
  {
    name: 'the sample bundle',
    base: '',
    pages: ['/api/'],
    make: (root: string) => buildWith(root, 'sample', join(REPO_ROOT, 'catalog.config.json')),
  },
  {
    name: 'a hostile 300-product Shopify-shaped bundle',
    base: '/api',
    pages: ['/', '/api/'],
    make: buildHostileBundle,
  },
];

/**
 * Questions in flight at once: enough to keep both cores of a CI machine busy while
 * netlify dev starts a worker per request, few enough that no request nears its bound.
 */
const ASKED_AT_ONCE = 4;

function serversOf(served: Served): Server[] {
  return [{ name: 'preview', url: served.preview.url }, ...served.engines];
}

/** A product as the catalog publishes it: what the live answers must agree with. */
interface CatalogProduct {
  id: string;
  name: string;
  price: string;
  currency: string;
}

/** About `count` products spread evenly over the catalog. */
function spread<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0);
}

/**
 * The products asked for by name on every engine: each whose name is not plain ASCII (the
 * hostile store's quotes, angle brackets, emoji and CJK) and a spread of the rest. Asking
 * all 300 on three engines took six minutes of a CI run; the search is the same code on
 * each, so what differs between engines is the text's way through them, which these cover.
 */
function askedOnEveryEngine(products: readonly CatalogProduct[]): CatalogProduct[] {
  const plain = (product: CatalogProduct) => /^[\x20-\x7e]*$/.test(product.name);
  const hard = products.filter((product) => !plain(product));
  return [...hard, ...spread(products.filter(plain), 25)];
}

/** The catalog file sits under the base path (`api/agent-catalog.json` for `/api`). */
async function readCatalog(dir: string, base: string): Promise<CatalogProduct[]> {
  const catalog = JSON.parse(await readFile(join(dir, base, 'agent-catalog.json'), 'utf8')) as {
    products: CatalogProduct[];
  };
  return catalog.products;
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * The server scenarios of the official MCP conformance suite that apply to a read-only
 * catalog. The suite's other scenarios call its reference server's own test tools
 * (`test_simple_text`, `test_error_handling`…), resources, prompts, logging, completion,
 * sampling and elicitation, none of which this server offers or announces; it answers them
 * -32601 (method not found) or -32602 (unknown tool), as MCP requires.
 */
const CONFORMANCE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

/** Runs one conformance scenario against an MCP endpoint; the CLI exits 0 only when every check passed. */
async function runConformance(
  url: string,
  scenario: string,
  cwd: string,
): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [MCP_CONFORMANCE, 'server', '--url', url, '--scenario', scenario],
      { cwd, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
    );
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return {
      ok: false,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}`.slice(-3000),
    };
  }
}

describe("the live handler on the hosts' own engines", requires(ENGINES), () => {
  let root = '';

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-live-hosts-'));
  }, 60_000);

  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  describe.each(CASES)('$name', ({ base, pages, make }) => {
    let served: Served | undefined;
    let products: CatalogProduct[] = [];
    let clients: Connected[] = [];

    beforeAll(async () => {
      const dir = await make(root);
      products = await readCatalog(dir, base);
      served = await serveEverywhere(dir, []);
      clients = await Promise.all(serversOf(served).map((server) => connect(server, base)));
    }, 240_000);

    afterAll(async () => {
      await Promise.all(clients.map((server) => server.client.close()));
      await stopAll(served);
    }, 60_000);

    const servers = (): Server[] => {
      if (served === undefined) throw new Error('not served');
      return serversOf(served);
    };

    it('when a live path is posted to then every server hands it to the live handler, with the same status', async () => {
      for (const path of [`${base}/mcp`, `${base}/ucp/catalog/search`]) {
        const statuses: Record<string, number> = {};
        for (const server of servers()) {
          const res = await post(`${server.url}${path}`, '{}');
          await res.arrayBuffer();
          statuses[server.name] = res.status;
          // The static servers answer a POST 405 (or, netlify dev, 200 "Method Not Allowed").
          expect(res.status, `${path} on ${server.name}`).not.toBe(405);
          expect(res.headers.get('allow'), `${path} on ${server.name}`).toBeNull();
        }
        expect(new Set(Object.values(statuses)).size, `${path}: ${JSON.stringify(statuses)}`).toBe(1);
      }
    });

    it('when an HTML page is asked for Markdown then every server answers its twin, and HTML otherwise, both with Vary: Accept', async () => {
      const get = (url: string, accept: string) =>
        fetch(url, { headers: { accept }, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      for (const page of pages) {
        const twin = await (await get(`${servers()[0]?.url}${page}index.md`, '*/*')).text();
        for (const server of servers()) {
          const where = `${page} on ${server.name}`;
          const markdown = await get(`${server.url}${page}`, 'text/markdown, text/html;q=0.5');
          expect(markdown.status, where).toBe(200);
          expect(markdown.headers.get('content-type'), where).toBe('text/markdown; charset=utf-8');
          expect(markdown.headers.get('vary'), where).toBe('Accept');
          expect(await markdown.text(), where).toBe(twin);
          const html = await get(`${server.url}${page}`, 'text/html,text/markdown;q=0.9');
          expect(html.status, where).toBe(200);
          expect(html.headers.get('content-type'), where).toMatch(/^text\/html/);
          expect(html.headers.get('vary') ?? '', where).toMatch(/Accept/);
          expect(await html.text(), where).toMatch(/^<!doctype html>/i);
          const refused = await get(`${server.url}${page}`, 'image/png');
          await refused.arrayBuffer();
          expect(refused.status, where).toBe(406);
        }
      }
    });

    it("when a host's own file is requested then every server answers 404", async () => {
      const asked = ['/_worker.js', '/_routes.json', '/.netlify-functions/agent-catalog-live.mjs'].flatMap(
        (path) => servers().map((server) => ({ path, server })),
      );
      await forEachAtMost(asked, ASKED_AT_ONCE, async ({ path, server }) => {
        const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(20_000) });
        await res.arrayBuffer();
        expect(res.status, `${path} on ${server.name}`).toBe(404);
      });
    });

    it('when the MCP SDK client lists the tools then every server offers the same four read-only tools', async () => {
      const lists = await Promise.all(clients.map((server) => server.client.listTools()));
      const names = lists[0]?.tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['get_customer_profile', 'get_product', 'lookup_catalog', 'search_catalog']);
      for (const [index, list] of lists.entries()) {
        expect(list, clients[index]?.name).toEqual(lists[0]);
        for (const tool of list.tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      }
      const instructions = clients.map((server) => server.client.getInstructions());
      expect(new Set(instructions).size).toBe(1);
    });

    it('when the official MCP conformance suite checks every server then each scenario that applies passes', async () => {
      const runs = servers().flatMap((server) =>
        CONFORMANCE_SCENARIOS.map((scenario) => ({ server, scenario })),
      );
      await forEachAtMost(runs, ASKED_AT_ONCE, async ({ server, scenario }) => {
        const run = await runConformance(`${server.url}${base}/mcp`, scenario, root);
        expect(run.ok, `${scenario} on ${server.name}:\n${run.output}`).toBe(true);
        expect(run.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      });
    }, 300_000);

    it('when every product is asked for by name and by id then every server finds it with the same answer', async () => {
      expect(products.length).toBeGreaterThan(0);
      // Every product on preview; on the engines, the ones whose names are hard to match and a spread.
      const [preview] = clients;
      if (preview === undefined) throw new Error('no preview client');
      await forEachAtMost(products, ASKED_AT_ONCE, (product) => expectFoundByName([preview], product));
      await forEachAtMost(askedOnEveryEngine(products), ASKED_AT_ONCE, (product) =>
        expectFoundByName(clients, product),
      );
      // Lookups by id in batches of the tool's maximum, then get_product for a spread of products.
      const batches: string[][] = [];
      for (let start = 0; start < products.length; start += 50) {
        batches.push(products.slice(start, start + 50).map((product) => product.id));
      }
      await forEachAtMost(batches, ASKED_AT_ONCE, async (ids) => {
        const looked = await callEverywhere(clients, 'lookup_catalog', { ids });
        expect(looked.products?.map((item) => item.id).sort()).toEqual([...ids].sort());
      });
      await forEachAtMost(spread(products, 30), ASKED_AT_ONCE, async (product) => {
        const byId = await callEverywhere(clients, 'get_product', { id: product.id });
        expect(byId.product?.id).toBe(product.id);
      });
    }, 900_000);

    it('when products are asked for by a price filter then every server pages through the same answers and finds every product', async () => {
      const amounts = products.map((product) => toMinorUnits(product.price, product.currency) ?? -1);
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await callEverywhere(clients, 'search_catalog', {
          filters: { price: { min: Math.min(...amounts), max: Math.max(...amounts) } },
          pagination: { limit: 50, ...(cursor === undefined ? {} : { cursor }) },
        });
        ids.push(...(page.products ?? []).map((item) => item.id));
        cursor = page.pagination?.cursor;
      } while (cursor !== undefined);
      expect([...ids].sort()).toEqual(products.map((product) => product.id).sort());
      await forEachAtMost(spread(products, 20), ASKED_AT_ONCE, async (product) => {
        const amount = toMinorUnits(product.price, product.currency) ?? -1;
        const page = await callEverywhere(clients, 'search_catalog', {
          filters: { price: { min: amount, max: amount } },
          pagination: { limit: 50 },
        });
        expect(
          page.products?.map((item) => item.id),
          `${product.name} at ${amount}`,
        ).toContain(product.id);
      });
    }, 600_000);

    it("when UCP REST is asked the same questions then every server gives the MCP tools' answers", async () => {
      const sample = products.filter(
        (_, index) => index % Math.max(1, Math.floor(products.length / 10)) === 0,
      );
      await forEachAtMost(sample, ASKED_AT_ONCE, async (product) => {
        const mcp = await callEverywhere(clients, 'get_product', { id: product.id });
        const search = await callEverywhere(clients, 'search_catalog', { query: product.name });
        for (const server of clients) {
          const rest = await post(
            `${server.url}${base}/ucp/catalog/product`,
            JSON.stringify({ id: product.id }),
          );
          expect(rest.status, server.name).toBe(200);
          expect(await rest.json(), `${product.id} on ${server.name}`).toEqual(mcp);
          const found = await post(
            `${server.url}${base}/ucp/catalog/search`,
            JSON.stringify({ query: product.name }),
          );
          expect(await found.json(), `${product.name} on ${server.name}`).toEqual(search);
        }
      });
    }, 300_000);

    it("when the official A2A client sends a message then every server answers with search_catalog's result", async () => {
      await forEachAtMost(spread(products, 3), ASKED_AT_ONCE, async (product) => {
        const search = await callEverywhere(clients, 'search_catalog', { query: product.name });
        for (const server of clients) {
          const res = await fetch(`${server.url}/.well-known/agent-card.json`, {
            signal: AbortSignal.timeout(20_000),
          });
          const card = (await res.json()) as { supportedInterfaces: { url: string }[] };
          // The card names the production address; the client is pointed at this server instead.
          card.supportedInterfaces = card.supportedInterfaces.map((item) => ({
            ...item,
            url: `${server.url}${new URL(item.url).pathname}`,
          }));
          const client = await new ClientFactory().createFromAgentCard(card as unknown as AgentCard);
          const reply = (await client.sendMessage({
            message: {
              messageId: `q-${product.id}`,
              contextId: '',
              taskId: '',
              role: Role.ROLE_USER,
              parts: [
                {
                  content: { $case: 'text', value: product.name },
                  mediaType: 'text/plain',
                  filename: '',
                  metadata: undefined,
                },
              ],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            },
          } as never)) as Message;
          const data = reply.parts.find((part) => part.content?.$case === 'data')?.content;
          expect(
            data?.$case === 'data' ? data.value : undefined,
            `${product.name} on ${server.name}`,
          ).toEqual(search);
        }
      });
    }, 300_000);

    it('when /.well-known/ucp is fetched then every server serves the same profile naming its MCP and REST endpoints', async () => {
      const bodies = await Promise.all(
        clients.map(async (server) => {
          const res = await fetch(`${server.url}/.well-known/ucp`, { signal: AbortSignal.timeout(20_000) });
          expect(res.status, server.name).toBe(200);
          return res.text();
        }),
      );
      expect(new Set(bodies).size).toBe(1);
      const profile = JSON.parse(bodies[0] ?? '{}') as {
        ucp: { services: Record<string, { transport: string; endpoint: string }[]> };
      };
      const endpoints = (profile.ucp.services['dev.ucp.shopping'] ?? []).map(
        (service) => new URL(service.endpoint).pathname,
      );
      expect(endpoints.sort()).toEqual([`${base}/mcp`, `${base}/ucp`].sort());
    });
  });
});
