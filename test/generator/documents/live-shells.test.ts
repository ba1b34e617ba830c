/**
 * The live handler's files as the build emits them: Cloudflare's `_worker.js` and
 * `_routes.json` and the Netlify function, present only with the live surface on, routing
 * exactly the live paths under the base path, self-contained and reproducible. The
 * emitted `_worker.js` is then run as Pages would run it (imported as a module, its
 * `ASSETS` binding answering from the bundle's own files) to show the bundle works.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { bundleShells } from '../../../generator/emit/live-bundle.js';
import { MAX_ROUTE_RULES, parseRoutesFile } from '../../../generator/emit/live-routes.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';
import { REPO_ROOT } from '../pipeline/helpers.js';

const HOST_FILES = ['_worker.js', '_routes.json', '.netlify-functions/agent-catalog-live.mjs'];

function emitWith(input: Partial<typeof SAMPLE_CONFIG_INPUT>): Artifact[] {
  return emitBundle(makeSamplePlan({ config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, ...input }) }));
}

function file(artifacts: readonly Artifact[], path: string): string {
  const found = artifacts.find((artifact) => artifact.path === path);
  if (found === undefined) throw new Error(`${path} not emitted`);
  return found.body;
}

interface PagesWorker {
  default: {
    fetch(
      request: Request,
      env: { ASSETS: { fetch(request: Request | string): Promise<Response> } },
    ): Promise<Response>;
  };
}

describe('the live handler files', () => {
  it('when the live surface is on then the worker, its routes and the Netlify function name exactly the live paths under the base path', () => {
    const artifacts = emitWith({
      base_url: 'https://shop.pomona.example/api',
      site_url: 'https://shop.pomona.example',
    });
    const routes = parseRoutesFile(file(artifacts, '_routes.json'));
    const live = [
      '/api/mcp',
      '/api/a2a',
      '/api/ucp/catalog/search',
      '/api/ucp/catalog/lookup',
      '/api/ucp/catalog/product',
      // The webhook receivers: routed always, answered only where their secret is set.
      '/api/hooks/shopify',
      '/api/hooks/woocommerce',
    ];
    expect(routes.include).toEqual(expect.arrayContaining(live));
    expect(
      routes.include.filter((path) => !HOST_FILES.some((host) => path.startsWith(`/${host.split('/')[0]}`))),
    ).toEqual([
      // The documentation page (with and without its slash, for Netlify), for Markdown negotiation.
      '/api/',
      '/api',
      // The product pages, packed into the handler's shards: one rule for the whole folder.
      '/kb/products/*',
      ...live,
    ]);
    expect(routes.include.length + routes.exclude.length).toBeLessThanOrEqual(MAX_ROUTE_RULES);
    const netlify = file(artifacts, '.netlify-functions/agent-catalog-live.mjs');
    const config = /^export const config = (\{.*\});\n/.exec(netlify);
    expect(JSON.parse(config?.[1] ?? '{}')).toEqual({ path: routes.include });
    // The one host besides its Netlify and loopback names that the function answers for.
    const site = /\nconst AGENT_CATALOG_SITE_ORIGIN = ("[^"\n]*");\n/.exec(netlify);
    expect(JSON.parse(site?.[1] ?? 'null')).toBe('https://shop.pomona.example');
    expect(file(artifacts, '_worker.js').length).toBeGreaterThan(1000);
  });

  it('when live.enabled is false then no worker, routes or function is emitted', () => {
    const paths = emitWith({ live: { enabled: false } }).map((artifact) => artifact.path);
    for (const path of HOST_FILES) expect(paths).not.toContain(path);
  });

  it('when the shells are bundled twice then the bytes are the same, self-contained and free of local paths', () => {
    const first = bundleShells();
    const second = bundleShells();
    expect(second).toEqual(first);
    for (const code of [first.cloudflare, first.netlify]) {
      expect(code).not.toContain(REPO_ROOT);
      // No import of a package or file is left for the host to resolve.
      expect(code).not.toMatch(/\bfrom\s*["'][^"']+["']/);
      expect(code).not.toMatch(/\bimport\s*\(\s*["']/);
    }
  });

  it('when the emitted _worker.js runs as Pages runs it then it answers MCP from the bundle and hands other paths to the assets', async () => {
    const artifacts = emitBundle(makeSamplePlan());
    const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-worker-'));
    try {
      const workerFile = join(dir, 'worker.mjs');
      await writeFile(workerFile, file(artifacts, '_worker.js'));
      const worker = (await import(pathToFileURL(workerFile).href)) as PagesWorker;
      const assetsAsked: string[] = [];
      const env = {
        ASSETS: {
          async fetch(request: Request | string): Promise<Response> {
            const path = new URL(typeof request === 'string' ? request : request.url).pathname.slice(1);
            assetsAsked.push(path);
            const found = artifacts.find((artifact) => artifact.path === path);
            return found === undefined
              ? new Response('not found', { status: 404 })
              : new Response(new Uint8Array(artifactBytes(found)));
          },
        },
      };
      const list = await worker.default.fetch(
        new Request('https://shop.pomona.example/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
        env,
      );
      expect(list.status).toBe(200);
      const answer = (await list.json()) as { result: { tools: { name: string }[] } };
      expect(answer.result.tools.map((tool) => tool.name).sort()).toEqual([
        'get_customer_profile',
        'get_product',
        'lookup_catalog',
        'search_catalog',
      ]);
      expect(assetsAsked).toContain('_live/manifest.json');
      const robots = await worker.default.fetch(new Request('https://shop.pomona.example/robots.txt'), env);
      expect(await robots.text()).toBe(file(artifacts, 'robots.txt'));
      const hidden = await worker.default.fetch(new Request('https://shop.pomona.example/_routes.json'), env);
      expect(hidden.status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
