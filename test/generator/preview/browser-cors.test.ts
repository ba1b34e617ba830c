/**
 * CORS as a real browser enforces it: a page on a second loopback origin fetches the
 * catalog from the preview and reads its products with a simple request; one that needs a
 * preflight fails, as it does on Cloudflare Pages and Netlify, whose static files answer
 * OPTIONS without Access-Control-Allow-Methods (test/hosts/engines.test.ts). The negative control fetches the same bytes from a server that
 * sends no CORS headers and must fail, so this test can tell the difference.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER,
  BROWSER_SKIP_REASON,
  launchBrowser,
  noBrowser,
  type TestBrowser,
} from '../../helpers/browser.js';
import { requires } from '../../helpers/requirements.js';
import { makeFixtureBundle } from './fixture-bundle.js';
import { rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

type FetchResult = { ok: true; count: number; status: number } | { ok: false; error: string };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeHttp(server: Server | undefined): Promise<void> {
  if (!server?.listening) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

if (noBrowser) console.warn(`browser-cors: skipped: ${BROWSER_SKIP_REASON}`);

describe('a browser on another origin reads the catalog from preview', requires(BROWSER), () => {
  let served: ServedBundle;
  let pageServer: Server;
  let pageOrigin: string;
  let noCorsServer: Server;
  let noCorsOrigin: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    served = await serveTempBundle(makeFixtureBundle());
    const catalog = (await rawRequest(served.url, '/agent-catalog')).body;
    pageServer = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>agent</title><p>client page</p>');
    });
    pageOrigin = await listen(pageServer);
    // The same catalog bytes, without CORS headers: what a misconfigured CDN would send.
    noCorsServer = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(catalog);
    });
    noCorsOrigin = await listen(noCorsServer);
    // No request interception: Playwright's routing answers CORS preflights itself, which
    // would hide what the browser enforces. Every URL here is loopback anyway.
    browser = await launchBrowser({ loopbackOnly: false });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await closeHttp(pageServer);
    await closeHttp(noCorsServer);
  });

  async function fetchFromPage(url: string, headers: Record<string, string> = {}): Promise<FetchResult> {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${pageOrigin}/`);
      return await page.evaluate(
        async ({ target, extra }): Promise<FetchResult> => {
          try {
            const res = await fetch(target, { headers: extra });
            const body = (await res.json()) as { products: unknown[] };
            return { ok: true, count: body.products.length, status: res.status };
          } catch (error) {
            return { ok: false, error: String(error) };
          }
        },
        { target: url, extra: headers },
      );
    } finally {
      await page.close();
    }
  }

  it('when the page fetches /agent-catalog cross-origin then it reads the products', async () => {
    const result = await fetchFromPage(`${served.url}/agent-catalog`);
    expect(result).toEqual({ ok: true, count: 3, status: 200 });
  });

  it('when the fetch needs a preflight then the browser refuses it, as on both hosts (a plain GET needs none)', async () => {
    const result = await fetchFromPage(`${served.url}/agent-catalog`, { 'X-Agent': 'test' });
    expect(result.ok).toBe(false);
  });

  it('when the server sends no CORS headers then the same fetch fails (negative control)', async () => {
    const result = await fetchFromPage(`${noCorsOrigin}/agent-catalog`);
    expect(result.ok).toBe(false);
  });
});
