/**
 * One generated HTML page served on a loopback port and opened by headless Chromium with
 * JavaScript off, plus a temporary folder for screenshots, for the tests of the pages the
 * bundle publishes (`/api/`, `/`). Everything is undone by one `close`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser } from './browser.js';

export interface PageInBrowser {
  /** The page's URL: only this exact path answers, anything else is 404. */
  url: string;
  browser: TestBrowser;
  shotsDir: string;
  close(): Promise<void>;
}

export async function servePageInBrowser(
  path: string,
  html: string,
  headers: Record<string, string> = {},
): Promise<PageInBrowser> {
  const server = createServer((request, response) => {
    if (request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const browser = await launchBrowser({ javaScriptEnabled: false });
  const shotsDir = await mkdtemp(join(tmpdir(), 'agent-catalog-page-shot-'));
  const close = async () => {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(shotsDir, { recursive: true, force: true });
  };
  return { url, browser, shotsDir, close };
}
