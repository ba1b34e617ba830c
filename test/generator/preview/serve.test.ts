/**
 * The preview server over real HTTP on a loopback port, with a fixture bundle: content
 * types, rewrites, pretty URLs, CORS, HEAD, ETag/If-None-Match, errors as JSON, hidden
 * files and the request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../generator/logger.js';
import { LINKSET_TYPE, makeFixtureBundle, RATE_POLICY } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

describe('preview serves a bundle as its hosting rules say', () => {
  let served: ServedBundle;
  const logger = createMemoryLogger();

  beforeAll(async () => {
    served = await serveTempBundle(makeFixtureBundle(), { logger });
  });
  afterAll(async () => {
    await served?.close();
  });

  it('when the catalog is requested extension-less then it is JSON with CORS, caching, ETag and policy', async () => {
    const res = await rawRequest(served.url, '/agent-catalog');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('application/json');
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(header(res, 'cache-control')).toBe('public, max-age=900');
    expect(header(res, 'ratelimit-policy')).toBe(RATE_POLICY);
    expect(header(res, 'etag')).toMatch(/^"[^"]+"$/);
    const catalog = JSON.parse(res.body) as { count: number; products: unknown[] };
    expect(catalog.products).toHaveLength(catalog.count);
    expect(header(res, 'ratelimit')).toBeUndefined();
  });

  it('when health is requested then it is JSON with status ok', async () => {
    const res = await rawRequest(served.url, '/agent-catalog/health');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });

  it.each([
    ['/.well-known/api-catalog', LINKSET_TYPE],
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/feed.xml', 'application/xml'],
    ['/sitemap.xml', 'application/xml'],
    ['/api/', 'text/html; charset=utf-8'],
    ['/kb/products.json', 'application/json'],
  ])('when %s is requested then its content type is %s', async (path, type) => {
    const res = await rawRequest(served.url, path);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe(type);
  });

  it('when a file has no Cache-Control rule then it gets the CDN default of always revalidating', async () => {
    const res = await rawRequest(served.url, '/robots.txt');
    expect(header(res, 'cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('when /api is requested without a slash then it is redirected 301 to /api/, keeping the query', async () => {
    const res = await rawRequest(served.url, '/api?x=1');
    expect(res.status).toBe(301);
    expect(header(res, 'location')).toBe('/api/?x=1');
    const index = await rawRequest(served.url, '/api/');
    expect(header(index, 'x-frame-options')).toBe('DENY');
  });

  it('when a redirect rule matches then it answers its status and target', async () => {
    const res = await rawRequest(served.url, '/old-catalog');
    expect(res.status).toBe(301);
    expect(header(res, 'location')).toBe('/agent-catalog');
  });

  it('when HEAD is used then the headers equal GET and there is no body', async () => {
    const get = await rawRequest(served.url, '/agent-catalog');
    const head = await rawRequest(served.url, '/agent-catalog', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    for (const name of [
      'content-type',
      'content-length',
      'etag',
      'cache-control',
      'access-control-allow-origin',
    ]) {
      expect(header(head, name), name).toBe(header(get, name));
    }
    expect(Number(header(head, 'content-length'))).toBe(Buffer.byteLength(get.body));
  });

  it('when If-None-Match names the current tag, weakly, in a list or as * then the answer is 304', async () => {
    const etag = header(await rawRequest(served.url, '/agent-catalog'), 'etag') ?? '';
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await rawRequest(served.url, '/agent-catalog', { headers: { 'If-None-Match': value } });
      expect(res.status, value).toBe(304);
      expect(res.body).toBe('');
      expect(header(res, 'etag')).toBe(etag);
      expect(header(res, 'access-control-allow-origin')).toBe('*');
      expect(header(res, 'cache-control')).toBe('public, max-age=900');
    }
    const stale = await rawRequest(served.url, '/agent-catalog', { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('when a browser sends a CORS preflight then it gets 405 without allow headers, as both hosts answer', async () => {
    const res = await rawRequest(served.url, '/agent-catalog', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://example.test',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match, x-agent',
      },
    });
    expect(res.status).toBe(405);
    expect(header(res, 'access-control-allow-methods')).toBeUndefined();
    expect(header(res, 'access-control-allow-headers')).toBeUndefined();
    expect(res.body).toBe('');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    'when %s is used then the answer is 405 with Allow and no body',
    async (method) => {
      const res = await rawRequest(served.url, '/agent-catalog', { method });
      expect(res.status).toBe(405);
      expect(header(res, 'allow')).toBe('GET, HEAD');
      expect(res.body).toBe('');
    },
  );

  it.each(['/agent-catalog/nope', '/.well-known/nope'])(
    'when unknown API path %s is requested then it is a plain 404 without CORS, as on the hosts',
    async (path) => {
      const res = await rawRequest(served.url, path);
      expect(res.status).toBe(404);
      expect(header(res, 'content-type')).toBe('text/plain; charset=utf-8');
      expect(header(res, 'access-control-allow-origin')).toBeUndefined();
    },
  );

  it('when an unknown site path is requested then it is a 404', async () => {
    expect((await rawRequest(served.url, '/nope.html')).status).toBe(404);
  });

  it.each(['/_headers', '/_redirects', '/.env', '/.git/config', '/.well-known/../.env'])(
    'when %s is requested then it is not served',
    async (path) => {
      const res = await rawRequest(served.url, path);
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('SECRET');
      expect(res.body).not.toContain('Access-Control-Allow-Origin');
    },
  );

  it('when a request is answered then one log line names method, path, status and time', async () => {
    await rawRequest(served.url, '/llms.txt?from=log-test');
    const line = logger.lines.find((item) => item.message.includes('/llms.txt?from=log-test'));
    expect(line?.message).toMatch(/^GET \/llms\.txt\?from=log-test 200 \d+(\.\d+)?ms$/);
  });
});

describe('preview with a base URL that carries a path', () => {
  let served: ServedBundle;

  beforeAll(async () => {
    served = await serveTempBundle(makeFixtureBundle('/api'));
  });
  afterAll(async () => {
    await served?.close();
  });

  it('when the catalog is requested under the prefix then it is served as JSON', async () => {
    const res = await rawRequest(served.url, '/api/agent-catalog');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('application/json');
    expect(JSON.parse(res.body)).toHaveProperty('products');
    const health = await rawRequest(served.url, '/api/agent-catalog/health');
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
  });

  it('when an unknown path under the prefixed catalog is requested then it is a plain 404', async () => {
    const res = await rawRequest(served.url, '/api/agent-catalog/nope');
    expect(res.status).toBe(404);
    expect(header(res, 'access-control-allow-origin')).toBeUndefined();
  });
});
