/**
 * "For every URL in the contract, preview and the generated `_headers`/`_redirects`
 * agree": bundles emitted by the real generator (the sample plan, the sample plan under a
 * path-prefixed base URL, and the sample merchant through `build({ write: false })`) are
 * served by preview, and every rule of their hosting files, and every public URL of
 * CONTRACT.md, is checked against the live answers. The live paths follow `_routes.json`
 * (what Cloudflare Pages routes to `_worker.js`): preview hands exactly those to the live
 * handler and serves every other path as a static file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { build } from '../../../generator/build.js';
import { parseHeadersFile, parseRedirectsFile } from '../../../generator/emit/hosting-rules-format.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { matchesRoutes, parseRoutesFile } from '../../../generator/emit/live-routes.js';
import { silentLogger } from '../../../generator/logger.js';
import { contractPaths } from '../../helpers/contract-paths.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface BundleCase {
  name: string;
  base: string;
  slug: string;
  artifacts: () => Promise<Artifact[]>;
}

const prefixedConfig = () =>
  makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, base_url: 'https://shop.pomona.example/api' });

const CASES: BundleCase[] = [
  { name: 'the sample plan', base: '', slug: 'pomona', artifacts: async () => emitBundle(makeSamplePlan()) },
  {
    name: 'the sample plan under base URL /api',
    base: '/api',
    slug: 'pomona',
    artifacts: async () => emitBundle(makeSamplePlan({ config: prefixedConfig() })),
  },
  {
    name: 'the sample merchant built with build({ write: false })',
    base: '',
    slug: 'pomona',
    artifacts: async () => {
      const result = await build({
        configPath: 'catalog.config.json',
        out: join(ROOT, 'dist-never-written'),
        cwd: ROOT,
        write: false,
        logger: silentLogger,
        now: () => new Date('2026-11-21T12:00:00.000Z'),
      });
      return result.artifacts;
    },
  },
];

describe.each(CASES)('preview agrees with the hosting rules of $name', ({ base, slug, artifacts }) => {
  let served: ServedBundle;
  let files: Artifact[];

  beforeAll(async () => {
    files = await artifacts();
    served = await serveTempBundle(files);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
  });

  /** True when a document of the bundle answers at `path` (its public path, file path or folder index). */
  function isServed(path: string): boolean {
    return files.some(
      (item) =>
        (item.publicPath ?? `/${item.path}`) === path ||
        `/${item.path}` === path ||
        `/${item.path}` === `${path}index.html`,
    );
  }

  it('when each _headers rule path is requested then every header of the rule is sent', async () => {
    const rules = parseHeadersFile(await readFile(join(served.dir, '_headers'), 'utf8'));
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules.filter((item) => !item.path.includes('*'))) {
      const res = await rawRequest(served.url, rule.path);
      // A rule for a page the bundle does not hold (the merchant's own site root) is for the CDN
      // alone; the one exception is preview's own `/` page (issue 24), which is never cached.
      if (!isServed(rule.path) && rule.path !== '/') {
        expect(res.status, rule.path).toBe(404);
        continue;
      }
      if (!isServed(rule.path)) expect(header(res, 'cache-control')).toBe('no-store');
      expect(res.status, rule.path).toBe(200);
      for (const [name, value] of rule.headers) {
        expect(header(res, name), `${rule.path} ${name}`).toContain(value);
      }
    }
  });

  it('when each _redirects rule is requested then preview serves its target or redirects to it', async () => {
    const rules = parseRedirectsFile(await readFile(join(served.dir, '_redirects'), 'utf8'));
    // Every bundle rewrites at least its extension-less catalog; an empty list would check nothing.
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules.filter((item) => !item.from.includes('*'))) {
      const res = await rawRequest(served.url, rule.from);
      expect(res.status, rule.from).toBe(rule.status);
      if (rule.status >= 300 && rule.status < 400) {
        expect(header(res, 'location'), rule.from).toBe(rule.to);
      } else {
        const target = await readFile(join(served.dir, rule.to.replace(/\/$/, '/index.html')), 'utf8');
        expect(res.body, rule.from).toBe(target);
      }
    }
  });

  it('when every public URL of the contract is requested then it is 200 with its artifact media type and open CORS', async () => {
    for (const path of contractPaths(base, slug)) {
      const res = await rawRequest(served.url, path);
      expect(res.status, path).toBe(200);
      const artifact =
        files.find((item) => (item.publicPath ?? `/${item.path}`) === path) ??
        files.find((item) => `/${item.path}` === `${path}index.html`);
      expect(artifact, `artifact for ${path}`).toBeDefined();
      expect(header(res, 'content-type'), path).toBe(artifact?.mediaType);
      expect(res.body, path).toBe(artifact?.body);
      expect(header(res, 'access-control-allow-origin'), path).toBe('*');
    }
  });

  it('when the catalog is requested then its caching is the 15 minutes of the spec', async () => {
    const res = await rawRequest(served.url, `${base}/agent-catalog`);
    expect(header(res, 'cache-control')).toMatch(/(^|[ ,])max-age=900([ ,]|$)/);
  });

  it('when a path outside the contract is requested then it is a real 404', async () => {
    for (const path of [
      '/agent-catalog.json/x',
      '/nope',
      `${base}/agent-catalog/nope`,
      '/_headers',
      '/_redirects',
    ]) {
      expect((await rawRequest(served.url, path)).status, path).toBe(404);
    }
  });

  it('when a path _routes.json sends to the worker is posted to then the live handler answers, and a static path stays 405', async () => {
    const routes = parseRoutesFile(await readFile(join(served.dir, '_routes.json'), 'utf8'));
    const live = [
      `${base}/mcp`,
      `${base}/ucp/catalog/search`,
      `${base}/ucp/catalog/lookup`,
      `${base}/ucp/catalog/product`,
    ];
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    for (const path of live) {
      expect(matchesRoutes(routes, path), path).toBe(true);
      const res = await rawRequest(served.url, path, post);
      // The static server answers every POST 405 with Allow: GET, HEAD; the live handler never does.
      expect(res.status, path).not.toBe(405);
      expect(header(res, 'allow'), path).toBeUndefined();
    }
    for (const path of contractPaths(base, slug)) {
      // The HTML pages with a Markdown twin reach the handler for Accept negotiation; it
      // answers GET and HEAD only, so a POST still falls through to the static 405.
      expect(matchesRoutes(routes, path), path).toBe(path === '/' || path === '/api/');
      expect((await rawRequest(served.url, path, post)).status, path).toBe(405);
    }
  });

  it("when a host's own file is requested then it is a real 404, as on both hosts", async () => {
    for (const path of ['/_worker.js', '/_routes.json', '/.netlify-functions/agent-catalog-live.mjs']) {
      expect((await rawRequest(served.url, path)).status, path).toBe(404);
    }
  });
});
