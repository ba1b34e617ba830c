import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../auth-server/secrets.js';
import { frozenClock } from './helpers/clock.js';
import { getJson, postForm, register } from './helpers/http.js';
import { type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';

// A confidential client (client_secret_post) whose secret is its id reversed.
function confidentialClient(clientId: string, createdAt: number) {
  return {
    clientId,
    secretHash: hashSecret(secretOf(clientId)),
    tokenEndpointAuthMethod: 'client_secret_post',
    redirectUris: ['http://127.0.0.1:9/callback'],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    scope: null,
    clientName: 'Rate Test',
    metadata: {},
    createdAt,
  };
}

function secretOf(clientId: string): string {
  return [...clientId].reverse().join('');
}

function tokenRequest(
  url: string,
  clientId?: string,
  headers: Record<string, string> = {},
  secret = clientId && secretOf(clientId),
) {
  const form: Record<string, string> = { grant_type: 'authorization_code', code: 'nope', redirect_uri: 'x' };
  if (clientId) form.client_id = clientId;
  if (clientId && secret) form.client_secret = secret;
  return postForm(`${url}/oauth/token`, form, headers);
}

describe('the request rate limit', () => {
  let issuer: ProductionIssuer | undefined;
  afterEach(async () => {
    await issuer?.close();
    issuer = undefined;
  });

  it('at the default 60 a minute, the 61st request gets 429 with Retry-After and the draft RateLimit fields', async () => {
    const clock = frozenClock();
    issuer = await startProductionIssuer({ clock: clock.now });
    const url = `${issuer.url}/.well-known/openid-configuration`;
    for (let i = 1; i <= 60; i++) {
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.status, `request ${i}`).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
      expect(response.headers.get('ratelimit')).toBe(`"default";r=${60 - i};t=59`);
    }
    const refused = await getJson(url);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_requests');
    expect(refused.headers.get('retry-after')).toBe('59');
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=59');
    // A browser script can read why it was refused.
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');

    clock.advance(60);
    expect((await getJson(url)).status).toBe(200);
  });

  it('--rate-limit 5 sets the figure; a page past it gets the HTML 429 page', async () => {
    issuer = await startProductionIssuer({ clock: frozenClock().now, config: { rateLimit: 5 } });
    for (let i = 0; i < 5; i++) expect((await getJson(`${issuer.url}/account`)).status).toBe(200);
    const refused = await fetch(`${issuer.url}/account`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
  });

  it('an authenticated client has its own budget, apart from its address and from other clients', async () => {
    const clock = frozenClock();
    issuer = await startProductionIssuer({ clock: clock.now, config: { rateLimit: 5 } });
    const now = Math.floor(clock.now() / 1000);
    await issuer.store.createClient(confidentialClient('agent-one', now));
    await issuer.store.createClient(confidentialClient('agent-two', now));
    for (let i = 0; i < 5; i++) expect((await tokenRequest(issuer.url, 'agent-one')).status).toBe(400);
    expect((await tokenRequest(issuer.url, 'agent-one')).status).toBe(429);
    // Same IP, other client: its own budget; and the same client via HTTP Basic shares agent-one's.
    expect((await tokenRequest(issuer.url, 'agent-two')).status).toBe(400);
    // agent-one's id with a wrong secret is no agent-one: it counts against the address (401: bad secret).
    expect((await tokenRequest(issuer.url, 'agent-one', {}, 'whatever')).status).toBe(401);
    // Anonymous requests from this address are still within the address's budget (401: no client).
    expect((await tokenRequest(issuer.url)).status).toBe(401);
  });

  it('a client_id sent from another address does not spend the client budget of this address', async () => {
    const clock = frozenClock();
    issuer = await startProductionIssuer({
      clock: clock.now,
      config: { rateLimit: 3, trustProxy: 'loopback' },
    });
    await issuer.store.createClient(confidentialClient('agent-one', Math.floor(clock.now() / 1000)));
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 3; i++) {
      expect((await tokenRequest(issuer.url, 'agent-one', from('203.0.113.66'))).status).toBe(400);
    }
    expect((await tokenRequest(issuer.url, 'agent-one', from('203.0.113.66'))).status).toBe(429);
    expect((await tokenRequest(issuer.url, 'agent-one', from('198.51.100.9'))).status).toBe(400);
  });

  it('an invented client_id does not escape the per-address budget', async () => {
    issuer = await startProductionIssuer({ clock: frozenClock().now, config: { rateLimit: 5 } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await tokenRequest(issuer.url, `made-up-${i}`)).status);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('--rate-limit 0 turns limiting off: no 429 and no RateLimit fields', async () => {
    issuer = await startProductionIssuer({ clock: frozenClock().now, config: { rateLimit: 0 } });
    for (let i = 0; i < 80; i++) {
      const response = await fetch(`${issuer.url}/.well-known/jwks.json`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });

  it('health checks are never limited', async () => {
    issuer = await startProductionIssuer({ clock: frozenClock().now, config: { rateLimit: 2 } });
    for (let i = 0; i < 10; i++) expect((await getJson(`${issuer.url}/healthz`)).status).toBe(200);
  });
});

describe('the registration throttle and trusted proxies', () => {
  let issuer: ProductionIssuer | undefined;
  afterEach(async () => {
    await issuer?.close();
    issuer = undefined;
  });

  it('past --registration-limit an hour from one address, registration gets 429; X-Forwarded-For is ignored by default', async () => {
    // One second into an hour (and so into a minute): a clock one second into a minute left
    // the hour's window anywhere from 1 to 3,600 seconds long, 59 when the test ran at :58.
    issuer = await startProductionIssuer({
      clock: frozenClock(3600).now,
      config: { rateLimit: 100, registrationLimit: 3 },
    });
    for (let i = 0; i < 3; i++) expect((await register(issuer.url)).response.status).toBe(201);
    const refused = (await register(issuer.url, 'none', { 'x-forwarded-for': '203.0.113.7' })).response;
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_requests');
    expect(refused.headers.get('ratelimit-policy')).toContain('"registration";q=3;w=3600');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it('with --trust-proxy loopback, the address behind the proxy is the key', async () => {
    issuer = await startProductionIssuer({
      clock: frozenClock().now,
      config: { rateLimit: 100, registrationLimit: 2, trustProxy: 'loopback' },
    });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    expect((await register(issuer.url, 'none', from('203.0.113.7'))).response.status).toBe(201);
    expect((await register(issuer.url, 'none', from('203.0.113.7'))).response.status).toBe(201);
    expect((await register(issuer.url, 'none', from('203.0.113.7'))).response.status).toBe(429);
    expect((await register(issuer.url, 'none', from('198.51.100.9'))).response.status).toBe(201);
  });
});
