import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emitDocs } from '../../../generator/emit/docs.js';
import { HTML_CONTENT_SECURITY_POLICY } from '../../../generator/emit/hosting.js';
import { BROWSER, BROWSER_SKIP_REASON, launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { type PageInBrowser, servePageInBrowser } from '../../helpers/page-in-browser.js';
import { requires } from '../../helpers/requirements.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

/** axe-core's own build, injected into the page as a script file. */
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeApi {
  run(
    context: Document,
    options: { resultTypes: string[] },
  ): Promise<Record<'violations' | 'incomplete', { id: string; impact?: string | null; nodes: unknown[] }[]>>;
}

const plan = makeSamplePlan();
const [page] = emitDocs(plan);
const html = page?.body ?? '';

describe('the documentation page', () => {
  test('is published at /api/ as UTF-8 HTML', () => {
    expect(page).toMatchObject({
      path: 'api/index.html',
      publicPath: '/api/',
      mediaType: 'text/html; charset=utf-8',
    });
  });

  test('has no script, no external stylesheet or image, and no third-party URL', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/i);
    expect(html).not.toMatch(/<img|<iframe|@import|url\(/i);
    const hosts = new Set(
      Array.from(html.matchAll(/https?:\/\/([a-z0-9.-]*[a-z0-9])/gi), (match) => match[1]),
    );
    expect([...hosts].sort()).toEqual(['auth.pomona.example', 'shop.pomona.example']);
  });

  test('escapes the product text from the real build rather than passing markup through', () => {
    expect(html).not.toContain('<for mornings>');
    expect(html).toContain('&lt;for mornings&gt;');
  });

  test('shows curl examples for both operations and example responses from the build', () => {
    expect(html).toContain('https://shop.pomona.example/agent-catalog/health');
    expect(html.match(/curl -s/g)?.length).toBeGreaterThanOrEqual(3);
    expect(html).toContain('Green Glow');
    expect(html).toContain('Ginger Shot');
    // Trimmed to two products: the third appears nowhere in the example.
    expect(html).not.toContain('Winter Citrus');
  });
});

function readPngSize(png: Buffer): { width: number; height: number } {
  // PNG: 8-byte signature, then the IHDR chunk whose data starts with width and height.
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe(`the documentation page in headless Chromium (${BROWSER_SKIP_REASON})`, requires(BROWSER), () => {
  let fixture: PageInBrowser | undefined;
  let url = '';
  let browser: TestBrowser;
  let shotsDir = '';

  beforeAll(async () => {
    // The policy the CDN sends with the page: scripts are forbidden.
    fixture = await servePageInBrowser('/api/', html, {
      'content-security-policy': HTML_CONTENT_SECURITY_POLICY,
    });
    ({ url, browser, shotsDir } = fixture);
  });

  afterAll(async () => {
    await fixture?.close();
  });

  test('renders with JavaScript off, no console errors and no request but the page itself', async () => {
    const tab = await browser.context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    tab.on('pageerror', (error) => errors.push(error.message));
    tab.on('request', (request) => requests.push(request.url()));
    const response = await tab.goto(url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    expect(browser.blockedRequests).toEqual([]);
    await tab.close();
  });

  test('has the language, landmarks, headings and table headers a screen reader needs', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(url);
    expect(await tab.getAttribute('html', 'lang')).toBe('en');
    await expect(tab.getByRole('main').count()).resolves.toBe(1);
    await expect(tab.getByRole('navigation', { name: 'On this page' }).count()).resolves.toBe(1);
    await expect(tab.getByRole('banner').count()).resolves.toBe(1);
    await expect(tab.getByRole('contentinfo').count()).resolves.toBe(1);
    await expect(tab.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Pomona Press Juice Co. Catalog API',
    );
    const sections = await tab.locator('main h2').allTextContents();
    expect(sections).toEqual([
      'Quick start',
      'Operations',
      'Fields',
      'Usage rules',
      'Account-scoped access',
      'Discovery documents',
    ]);
    for (const name of ['getCatalog', 'getHealth']) {
      await expect(tab.getByRole('heading', { level: 3, name: new RegExp(name) }).count()).resolves.toBe(1);
    }
    // The default terms URL points at #usage, so the anchor must exist.
    await expect(tab.locator('#usage').count()).resolves.toBe(1);
    // One fields table per component schema (Catalog, Merchant, Checkout, Product, Variant,
    // Image, Option, PriceRange, Health, Error), and the scopes table.
    const tables = await tab.locator('table').count();
    expect(tables).toBe(11);
    await expect(tab.locator('table:not(:has(thead th[scope="col"]))').count()).resolves.toBe(0);
    await expect(tab.locator('table:not(:has(caption))').count()).resolves.toBe(0);
    await tab.close();
  });

  test('states the usage rules', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(url);
    const rules = (await tab.locator('#usage li').allTextContents()).join('\n');
    expect(rules).toMatch(/Attribution/);
    expect(rules).toMatch(/under 60/);
    expect(rules).toMatch(/train/);
    expect(rules).toMatch(/automate purchases/);
    await tab.close();
  });

  test('fits a phone screen without sideways scrolling', async () => {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.goto(url);
    const width = await tab.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await tab.close();
  });

  test('a full-page screenshot is a real image of the page at its width', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(url);
    const file = join(shotsDir, 'api-docs.png');
    await tab.screenshot({ path: file, fullPage: true });
    const png = await readFile(file);
    const { width, height } = readPngSize(png);
    expect(width).toBe(1280);
    expect(height).toBeGreaterThan(2000);
    // A blank or near-blank page compresses to a few kilobytes; this one has text and colour.
    expect(png.length).toBeGreaterThan(100_000);
    await tab.close();
  });

  test('axe-core finds no serious or critical accessibility violation', async () => {
    // axe needs JavaScript, and the page's CSP forbids scripts: a second context bypasses it.
    const scripted = await launchBrowser({ bypassCSP: true });
    try {
      const tab = await scripted.context.newPage();
      await tab.goto(url);
      await tab.addScriptTag({ path: AXE_SOURCE });
      const violations = await tab.evaluate(async () => {
        const axe = (window as unknown as { axe: AxeApi }).axe;
        const results = await axe.run(document, { resultTypes: ['violations', 'incomplete'] });
        // "incomplete" is what axe could not decide; a serious finding there is still a finding.
        return [...results.violations, ...results.incomplete].map((v) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.length,
        }));
      });
      const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(blocking).toEqual([]);
      expect(scripted.blockedRequests).toEqual([]);
    } finally {
      await scripted.close();
    }
  });
});
