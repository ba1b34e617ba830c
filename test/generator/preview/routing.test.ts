/**
 * The `_redirects` semantics preview follows beyond plain rewrites: splats, redirects
 * keeping the query, a file shadowing an unforced rule but not a forced one, 404 rules
 * with a custom page, and the absolute request form a proxy sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

const EXTRA_REDIRECTS = [
  '/docs/*      /api/:splat    301',
  '/robots.txt  /llms.txt      200',
  '/feed.xml    /sitemap.xml   200!',
  '/gone        /404.html      404',
  '/elsewhere   https://example.test/x  200',
].join('\n');

describe('preview follows Netlify redirect semantics', () => {
  let served: ServedBundle;

  beforeAll(async () => {
    // Model (b)'s root: no file, only a rule naming the discovery documents.
    const rootRule =
      '/\n  Link: </.well-known/api-catalog>; rel="api-catalog"\n/only-a-rule\n  Link: </only>; rel="related"\n';
    const files = makeFixtureBundle().map((file) =>
      file.path === '_redirects'
        ? { ...file, body: `${file.body}${EXTRA_REDIRECTS}\n` }
        : file.path === '_headers'
          ? { ...file, body: `${file.body}${rootRule}` }
          : file,
    );
    served = await serveTempBundle([...files, { path: '404.html', body: '<h1>Custom not found</h1>' }]);
  });
  afterAll(async () => {
    await served?.close();
  });

  it('when a splat rule matches then the splat fills the target and the query is kept', async () => {
    const res = await rawRequest(served.url, '/docs/openapi.json?v=1');
    expect(res.status).toBe(301);
    expect(header(res, 'location')).toBe('/api/openapi.json?v=1');
  });

  it('when a file exists at an unforced rule path then the file wins (shadowing)', async () => {
    const res = await rawRequest(served.url, '/robots.txt');
    expect(res.body).toContain('User-agent');
  });

  it('when a forced rule matches a path with a file then the rule wins', async () => {
    const res = await rawRequest(served.url, '/feed.xml');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<urlset>');
  });

  it("when the root has no file but a _headers rule then its 404 carries the rule's Link, as Cloudflare Pages sends it", async () => {
    // `/` itself is preview's own page in model (b); another path with only a rule shows it.
    const root = await rawRequest(served.url, '/');
    expect(header(root, 'link')).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    const ruled = await rawRequest(served.url, '/only-a-rule');
    expect(ruled.status).toBe(404);
    expect(header(ruled, 'link')).toContain('</only>; rel="related"');
    const unknown = await rawRequest(served.url, '/no-such-page');
    expect(unknown.status).toBe(404);
    expect(header(unknown, 'link')).toBeUndefined();
  });

  it('when a 404 rule matches then its page is served with status 404', async () => {
    const res = await rawRequest(served.url, '/gone');
    expect(res.status).toBe(404);
    expect(res.body).toContain('Custom not found');
  });

  it('when an unknown site path is requested and the bundle has 404.html then that page is the 404', async () => {
    const res = await rawRequest(served.url, '/no-such-page');
    expect(res.status).toBe(404);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Custom not found');
  });

  it('when a rule proxies to another site then preview answers 502 without fetching it', async () => {
    const res = await rawRequest(served.url, '/elsewhere');
    expect(res.status).toBe(502);
  });

  it('when the target is in absolute form then it is served like its path', async () => {
    const res = await rawRequest(served.url, 'http://shop.pomona.example/agent-catalog');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('products');
  });

  it('when the catalog rule path is requested with a trailing slash then the rule still applies', async () => {
    const res = await rawRequest(served.url, '/agent-catalog/');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('application/json');
  });
});
