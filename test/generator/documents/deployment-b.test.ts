/**
 * Deployment model (b) from the configuration: `storefront_origin` turns on the proxy rule
 * that sends every path the bundle does not serve to the storefront's origin server. It is
 * the last line of `_redirects`, the bundle keeps every other rule, the sitemap lists the
 * product pages (they are on the site's own host), `/` is left to the store, and `check`
 * accepts the rule only in that place. Inconsistent combinations are refused, naming keys.
 */
import { describe, expect, it } from 'vitest';
import { type ConfigInput, resolveConfig } from '../../../generator/config.js';
import { checkHostingRules } from '../../../generator/emit/hosting.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { isCatalogError } from '../../../generator/errors.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import { catchError } from '../../helpers/catch-error.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

const STORE = 'https://shop.pomona.example';
const ORIGIN_SERVER = 'https://pomona-press.myshopify.com';
const MODEL_B: ConfigInput = { ...SAMPLE_CONFIG_INPUT, storefront_origin: `${ORIGIN_SERVER}/` };

function filesOf(input: ConfigInput): Map<string, string> {
  return new Map(bundleFilesOf(emitBundle(makeSamplePlan({ config: makeSampleConfig(input) }))));
}

function ruleLines(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/));
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] ?? '');
}

function refusal(input: ConfigInput): { message: string; fields: unknown } {
  const error = catchError(() => resolveConfig(input, { file: 'c.json', configDir: '/x' }));
  if (!isCatalogError(error)) throw error;
  expect(error.code).toBe('CONFIG_INVALID');
  return { message: error.message, fields: error.details.fields };
}

describe('model (b): storefront_origin', () => {
  it('when storefront_origin is set then the last rule of _redirects proxies /* to it, after every rewrite', () => {
    const withProxy = ruleLines(filesOf(MODEL_B).get('_redirects') ?? '');
    const without = ruleLines(filesOf(SAMPLE_CONFIG_INPUT).get('_redirects') ?? '');
    expect(withProxy.at(-1)).toEqual(['/*', `${ORIGIN_SERVER}/:splat`, '200']);
    expect(withProxy.slice(0, -1)).toEqual(without);
    expect(without.some(([from]) => from === '/*')).toBe(false);
  });

  it('when the bundle is at the store origin then the sitemap lists the product pages and no landing page is emitted', () => {
    const files = filesOf(MODEL_B);
    const listed = locs(files.get('sitemap.xml') ?? '');
    const products = JSON.parse(files.get('agent-catalog.json') ?? '{}') as { products: { url: string }[] };
    expect(products.products.length).toBeGreaterThan(0);
    for (const product of products.products) expect(listed).toContain(product.url);
    expect(listed).not.toContain(`${STORE}/`);
    expect(files.has('index.html')).toBe(false);
    expect(files.has('404.html')).toBe(false);
  });

  it("when the live surface is on then /webmcp.js is served for the store's own page to load, calling the same origin", () => {
    const files = filesOf(MODEL_B);
    const script = files.get('webmcp.js') ?? '';
    expect(script).toContain('registerTool');
    expect(script).toContain(JSON.stringify(`${STORE}/ucp`));
    expect(filesOf({ ...MODEL_B, live: { enabled: false } }).has('webmcp.js')).toBe(false);
  });

  it('when the bundle is built with the proxy then its own checker accepts it', () => {
    expect(checkHostingRules(filesOf(MODEL_B))).toEqual([]);
  });

  it('when the proxy is not the last rule then check refuses it, since the rules after it would never match', () => {
    const files = filesOf(MODEL_B);
    const lines = (files.get('_redirects') ?? '').trimEnd().split('\n');
    const proxy = lines.pop() ?? '';
    files.set('_redirects', `${[proxy, ...lines].join('\n')}\n`);
    expect(checkHostingRules(files).map((problem) => problem.message)).toEqual([
      expect.stringContaining('the storefront proxy must be the last rule'),
    ]);
  });

  it('when another rule proxies to another origin then check still refuses it', () => {
    const files = filesOf(MODEL_B);
    files.set('_redirects', `/shop/*  ${ORIGIN_SERVER}/:splat  200\n${files.get('_redirects')}`);
    const messages = checkHostingRules(files).map((problem) => problem.message);
    expect(messages.some((m) => m.includes('cannot proxy to another origin'))).toBe(true);
  });
});

describe('model (a): the landing page in the sitemap', () => {
  it('when the bundle has its own host then the sitemap lists / and /api/, both pages of that host', () => {
    const agents = 'https://agents.pomona.example';
    const files = filesOf({ ...SAMPLE_CONFIG_INPUT, site_url: agents });
    const listed = locs(files.get('sitemap.xml') ?? '');
    expect(files.has('index.html')).toBe(true);
    expect(listed).toContain(`${agents}/`);
    expect(listed).toContain(`${agents}/api/`);
  });
});

describe('inconsistent deployment keys', () => {
  it('when storefront_origin is set in model (a) then CONFIG_INVALID names storefront_origin, storefront_url and site_url', () => {
    const { message, fields } = refusal({ ...MODEL_B, site_url: 'https://agents.pomona.example' });
    expect(fields).toEqual(['storefront_origin', 'storefront_url', 'site_url']);
    expect(message).toContain('storefront_origin is for model (b)');
  });

  it('when storefront_origin is the origin of site_url then CONFIG_INVALID says the CDN would proxy to itself', () => {
    const { message, fields } = refusal({ ...SAMPLE_CONFIG_INPUT, storefront_origin: STORE });
    expect(fields).toEqual(['storefront_origin', 'site_url']);
    expect(message).toContain('proxy to itself');
  });

  it('when storefront_origin carries a path then CONFIG_INVALID names storefront_origin', () => {
    const { fields } = refusal({ ...SAMPLE_CONFIG_INPUT, storefront_origin: `${ORIGIN_SERVER}/shop` });
    expect(fields).toEqual(['storefront_origin']);
  });
});
