/**
 * The emitted host files run as their hosts run them, with the receiver's variables in the
 * host's own form: Cloudflare Pages' `_worker.js` imported as a module and called with an
 * `env` holding the secrets beside `ASSETS` and a `ctx.waitUntil`; the Netlify function
 * called with a `context.waitUntil` and its variables in `Netlify.env`, reading the
 * bundle's files over HTTP from a preview of the same bundle. The trigger goes to a
 * loopback stand-in, and it is sent within the promise handed to `waitUntil`, so a host
 * that ends the instance once those settle still sends it. (wrangler and netlify-cli
 * themselves: test/hosts/hooks.test.ts.)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { type ServedBundle, serveTempBundle } from '../../generator/preview/served-bundle.js';
import { buildSampleLiveBundle } from '../live-bundle.js';
import { type Delivery, SHOPIFY_SECRET, shopifyDelivery, WOO_SECRET, wooDelivery } from './deliveries.js';
import { startTriggerStandIn, type TriggerStandIn } from './trigger-stand-in.js';

type Handler = (request: Request) => Promise<Response>;

let artifacts: Artifact[];
let dir: string;
let standIn: TriggerStandIn;
let modules = 0;

beforeAll(async () => {
  artifacts = (await buildSampleLiveBundle()).artifacts;
  dir = await mkdtemp(join(tmpdir(), 'agent-catalog-hook-shells-'));
  standIn = await startTriggerStandIn();
});

afterAll(async () => {
  await standIn?.close();
  await rm(dir, { recursive: true, force: true });
});

function body(path: string): string {
  const found = artifacts.find((artifact) => artifact.path === path);
  if (found === undefined) throw new Error(`${path} not emitted`);
  return found.body;
}

/** A fresh copy of a host file as a module of its own: one isolate, with its own receiver state. */
async function importFresh<T>(path: string): Promise<T> {
  modules += 1;
  const file = join(dir, `shell-${modules}.mjs`);
  await writeFile(file, body(path));
  return (await import(pathToFileURL(file).href)) as T;
}

function hookEnv(): Record<string, string> {
  return {
    AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
    AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: WOO_SECRET,
    AGENT_CATALOG_REBUILD_URL: `${standIn.origin}/build_hooks/pages-or-netlify`,
  };
}

/** Delivers through a handler as the host would (a Request in, a Response out). */
function viaHandler(handler: Handler, origin: string) {
  return async (path: string, delivery: Delivery) => {
    const response = await handler(
      new Request(`${origin}${path}`, { method: 'POST', headers: delivery.headers, body: delivery.body }),
    );
    return response.status;
  };
}

interface PagesModule {
  default: {
    fetch(
      request: Request,
      env: Record<string, unknown>,
      ctx: { waitUntil(p: Promise<unknown>): void },
    ): Promise<Response>;
  };
}

describe('the Cloudflare Pages worker', () => {
  it('when a good delivery arrives then it answers 200 and the trigger is sent within what it handed to waitUntil', async () => {
    const worker = await importFresh<PagesModule>('_worker.js');
    const kept: Promise<unknown>[] = [];
    const assets = {
      async fetch(request: Request | string): Promise<Response> {
        const path = new URL(typeof request === 'string' ? request : request.url).pathname.slice(1);
        const found = artifacts.find((artifact) => artifact.path === path);
        return found
          ? new Response(new Uint8Array(artifactBytes(found)))
          : new Response('not found', { status: 404 });
      },
    };
    const env = { ASSETS: assets, ...hookEnv() };
    const ctx = { waitUntil: (promise: Promise<unknown>) => kept.push(promise) };
    const send = viaHandler(
      (request) => worker.default.fetch(request, env, ctx),
      'https://shop.pomona.example',
    );
    const before = standIn.calls.length;
    expect(await send('/hooks/shopify', shopifyDelivery())).toBe(200);
    expect(await send('/hooks/woocommerce', wooDelivery())).toBe(200);
    expect(await send('/hooks/shopify', shopifyDelivery({ secret: 'forged' }))).toBe(401);
    expect(kept.length).toBeGreaterThan(0);
    await Promise.all(kept);
    expect(standIn.calls.length - before).toBe(1);
  });

  it('when the project has no secret then the receiver paths are 404', async () => {
    const worker = await importFresh<PagesModule>('_worker.js');
    const env = { ASSETS: { fetch: async () => new Response('not found', { status: 404 }) } };
    const response = await worker.default.fetch(
      new Request('https://shop.pomona.example/hooks/shopify', { method: 'POST', body: '{}' }),
      env,
      { waitUntil: () => {} },
    );
    expect(response.status).toBe(404);
  });
});

interface NetlifyModule {
  default(request: Request, context: { waitUntil(p: Promise<unknown>): void }): Promise<Response>;
}

describe('the Netlify function', () => {
  let site: ServedBundle;
  const scope = globalThis as { Netlify?: unknown };

  beforeAll(async () => {
    site = await serveTempBundle(artifacts);
  });
  afterAll(async () => {
    delete scope.Netlify;
    await site?.close();
  });

  it('when a good delivery arrives then it answers 200 and the trigger is sent within what it handed to waitUntil', async () => {
    const env = hookEnv();
    scope.Netlify = { env: { get: (name: string) => env[name] } };
    const fn = await importFresh<NetlifyModule>('.netlify-functions/agent-catalog-live.mjs');
    const kept: Promise<unknown>[] = [];
    const send = viaHandler((request) => fn.default(request, { waitUntil: (p) => kept.push(p) }), site.url);
    const before = standIn.calls.length;
    expect(await send('/hooks/woocommerce', wooDelivery())).toBe(200);
    expect(
      await send('/hooks/shopify', shopifyDelivery({ triggeredAt: new Date(Date.now() - 20 * 60_000) })),
    ).toBe(400);
    await Promise.all(kept);
    expect(standIn.calls.length - before).toBe(1);
  });

  it('when the site has no secret then the receiver paths are 404', async () => {
    scope.Netlify = { env: { get: () => undefined } };
    const fn = await importFresh<NetlifyModule>('.netlify-functions/agent-catalog-live.mjs');
    const response = await fn.default(
      new Request(`${site.url}/hooks/shopify`, {
        method: 'POST',
        headers: shopifyDelivery().headers,
        body: '{}',
      }),
      { waitUntil: () => {} },
    );
    expect(response.status).toBe(404);
  });
});
