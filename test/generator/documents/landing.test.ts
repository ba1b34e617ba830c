/**
 * The site root in deployment model (a): a landing page for people and agents, emitted only
 * when the bundle has a host of its own, checked as text and in headless Chromium with
 * JavaScript off (landmarks, the links a visitor needs, phone width, a real screenshot).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHeadersFile } from '../../../generator/emit/hosting-rules-format.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { emitLanding } from '../../../generator/emit/landing.js';
import { BROWSER, BROWSER_SKIP_REASON, type TestBrowser } from '../../helpers/browser.js';
import { type PageInBrowser, servePageInBrowser } from '../../helpers/page-in-browser.js';
import { requires } from '../../helpers/requirements.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

const AGENTS = 'https://agents.pomona.example';
const STORE = 'https://shop.pomona.example';
const ownHost = makeSamplePlan({ config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, site_url: AGENTS }) });
const [page, notFound] = emitLanding(ownHost);
const html = page?.body ?? '';

describe('the landing page at /', () => {
  test('is emitted as index.html at / only when the bundle has its own host (model a)', () => {
    expect(page).toMatchObject({
      path: 'index.html',
      publicPath: '/',
      mediaType: 'text/html; charset=utf-8',
    });
    expect(emitLanding(makeSamplePlan())).toEqual([]);
  });

  test('comes with a top-level 404.html, so Cloudflare Pages does not serve it for every unknown path', () => {
    expect(notFound).toMatchObject({ path: '404.html', mediaType: 'text/html; charset=utf-8' });
    expect(notFound?.body).toContain(`href="${AGENTS}/"`);
  });

  test('names the merchant, links the shop and every document, and loads nothing else', () => {
    expect(html).toContain('<h1>Pomona Press Juice Co.</h1>');
    expect(html).toContain(`href="${STORE}"`);
    for (const path of ['/api/', '/agent-catalog', '/llms.txt', '/feed.xml', '/api/openapi.json']) {
      expect(html).toContain(`href="${AGENTS}${path}"`);
    }
    expect(html).not.toMatch(/<img|<iframe|@import|url\(/i);
    // One script, the bundle's own WebMCP registration, deferred; nothing inline.
    expect([...html.matchAll(/<script[^>]*>/g)].map((match) => match[0])).toEqual([
      '<script src="/webmcp.js" defer>',
    ]);
  });

  test('is served with the Link relations agent-readiness scanners read', () => {
    const rules = parseHeadersFile(emitBundle(ownHost).find((a) => a.path === '_headers')?.body ?? '');
    const link = rules
      .find((rule) => rule.path === '/')
      ?.headers.filter(([name]) => name === 'Link')
      .map(([, value]) => value)
      .join(', ');
    for (const rel of ['api-catalog', 'service-desc', 'service-doc', 'ai-catalog', 'alternate']) {
      expect(link).toContain(`rel="${rel}"`);
    }
    expect(link).toContain('</index.md>; rel="alternate"; type="text/markdown"');
  });
});

describe(`the landing page in headless Chromium (${BROWSER_SKIP_REASON})`, requires(BROWSER), () => {
  let fixture: PageInBrowser | undefined;
  let url = '';
  let browser: TestBrowser;
  let shotsDir = '';

  beforeAll(async () => {
    fixture = await servePageInBrowser('/', html);
    ({ url, browser, shotsDir } = fixture);
  });

  afterAll(async () => {
    await fixture?.close();
  });

  test('renders with JavaScript off, with landmarks, a heading and the links by name', async () => {
    const tab = await browser.context.newPage();
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    expect((await tab.goto(url, { waitUntil: 'load' }))?.status()).toBe(200);
    expect(requests).toEqual([url]);
    expect(await tab.getAttribute('html', 'lang')).toBe('en');
    for (const role of ['banner', 'main', 'contentinfo'] as const) {
      await expect(tab.getByRole(role).count()).resolves.toBe(1);
    }
    await expect(tab.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Pomona Press Juice Co.',
    );
    const links: [string, string][] = [
      ['Visit the shop', STORE],
      ['API documentation', `${AGENTS}/api/`],
      ['The catalog', `${AGENTS}/agent-catalog`],
      ['llms.txt', `${AGENTS}/llms.txt`],
      ['Product feed', `${AGENTS}/feed.xml`],
    ];
    for (const [name, href] of links) {
      await expect(tab.getByRole('link', { name, exact: true }).getAttribute('href')).resolves.toBe(href);
    }
    await tab.close();
  });

  test('fits a phone screen, and a full-page screenshot is a real image of it', async () => {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.goto(url);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await tab.setViewportSize({ width: 1280, height: 800 });
    const file = join(shotsDir, 'landing.png');
    await tab.screenshot({ path: file, fullPage: true });
    const png = await readFile(file);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1280);
    // A blank page compresses to a few kilobytes; this one has text and colour.
    expect(png.length).toBeGreaterThan(30_000);
    await tab.close();
  });
});
