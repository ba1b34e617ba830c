import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';

describe('the protective middleware in front of every route', () => {
  let issuer: ProductionIssuer;

  beforeAll(async () => {
    issuer = await startProductionIssuer({ config: { rateLimit: 0 } });
  });
  afterAll(async () => {
    await issuer.close();
  });

  it('every response carries nosniff, no-referrer and a deny-all CSP, even a 404', async () => {
    for (const path of ['/.well-known/openid-configuration', '/no-such-path', '/.well-known/jwks.json']) {
      const response = await fetch(`${issuer.url}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // The issuer is plain http on loopback: HSTS would be meaningless.
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('a CORS preflight on the token endpoint is answered 204 for any origin, without credentials', async () => {
    const response = await fetch(`${issuer.url}/oauth/token`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://spa.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('the token, revoke, userinfo, JWKS and metadata answers allow any origin', async () => {
    const paths = [
      ['POST', '/oauth/token'],
      ['POST', '/oauth/revoke'],
      ['GET', '/oauth/userinfo'],
      ['GET', '/.well-known/jwks.json'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/openid-configuration'],
    ] as const;
    for (const [method, path] of paths) {
      const response = await fetch(`${issuer.url}${path}`, {
        method,
        headers: { origin: 'https://spa.example' },
      });
      await response.arrayBuffer();
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(response.headers.get('access-control-expose-headers'), path).toContain('WWW-Authenticate');
    }
  });

  it('the HTML pages and registration get no CORS headers, not even on a preflight', async () => {
    for (const path of ['/oauth/authorize', '/signin', '/account', '/consent']) {
      const response = await fetch(`${issuer.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      await response.arrayBuffer();
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull();
      const get = await fetch(`${issuer.url}${path}`, { headers: { origin: 'https://evil.example' } });
      await get.arrayBuffer();
      expect(get.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it('a sane incoming X-Request-Id is echoed, a hostile one is replaced', async () => {
    const kept = await fetch(`${issuer.url}/healthz`, { headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc');
    const hostile = await fetch(`${issuer.url}/healthz`, {
      headers: { 'x-request-id': `a b"}\\n${'x'.repeat(300)}` },
    });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = await fetch(`${issuer.url}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a declared body over 16 KiB is refused with 413 and a JSON error before it is read', async () => {
    const body = `grant_type=authorization_code&code=${'a'.repeat(17 * 1024)}`;
    const response = await fetch(`${issuer.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a chunked body over the limit is stopped by the parser with the same 413', async () => {
    const chunk = new TextEncoder().encode(`code=${'b'.repeat(20 * 1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${issuer.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a compressed body is refused with 415 instead of being inflated', async () => {
    const { gzipSync } = await import('node:zlib');
    const response = await fetch(`${issuer.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from('grant_type=refresh_token&refresh_token=x')),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('/healthz answers 200 ok while the database answers', async () => {
    const response = await fetch(`${issuer.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('the health check when the database is gone', () => {
  it('/healthz answers 503 once the store is closed', async () => {
    const issuer = await startProductionIssuer({ config: { rateLimit: 0 } });
    try {
      await issuer.store.close();
      const response = await fetch(`${issuer.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'unavailable' });
    } finally {
      await issuer.running.close();
      await issuer.database.drop();
    }
  });
});
