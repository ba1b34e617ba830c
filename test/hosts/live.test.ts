/**
 * The live handler where it runs, proven on the hosts' own engines: the sample bundle and
 * the hostile 300-product bundle are built with the real CLI and served once by `preview`
 * (the Node shell), once by `wrangler pages dev` (the bundle's `_worker.js` on workerd,
 * routed by `_routes.json`) and once by `netlify dev --offline` (the bundle's Functions v2
 * function). The official MCP SDK client must list the tools and find every product by
 * name, by id and by a price filter, with identical answers from the three; UCP REST and
 * `/.well-known/ucp` likewise. Engine start-up is slow: one engine process per host and
 * bundle, shared by the file's tests; every request is bounded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCompiled } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { requires } from '../helpers/requirements.js';
import { ENGINES } from './engines.js';
import { buildHostileBundle, buildWith, type Served, serveEverywhere, stopAll } from './served.js';

const CASES = [
  {
    name: 'the sample bundle',
    base: '',
    make: (root: string) => buildWith(root, 'sample', join(REPO_ROOT, 'catalog.config.json')),
  },
  { name: 'a hostile 300-product Shopify-shaped bundle', base: '/api', make: buildHostileBundle },
];

interface Server {
  name: string;
  url: string;
}

function serversOf(served: Served): Server[] {
  return [{ name: 'preview', url: served.preview.url }, ...served.engines];
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

describe("the live handler on the hosts' own engines", requires(ENGINES), () => {
  let root = '';

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-live-hosts-'));
  }, 60_000);

  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  describe.each(CASES)('$name', ({ base, make }) => {
    let served: Served | undefined;

    beforeAll(async () => {
      const dir = await make(root);
      served = await serveEverywhere(dir, []);
    }, 240_000);

    afterAll(() => stopAll(served), 60_000);

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

    it("when a host's own file is requested then every server answers 404", async () => {
      for (const path of ['/_worker.js', '/_routes.json', '/.netlify-functions/agent-catalog-live.mjs']) {
        for (const server of servers()) {
          const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(20_000) });
          await res.arrayBuffer();
          expect(res.status, `${path} on ${server.name}`).toBe(404);
        }
      }
    });
  });
});
