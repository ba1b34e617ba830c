import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.js';
import { authorizeInBrowser, FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import {
  authorize,
  buildAuthorizationUrl,
  discover,
  postForm,
  type RegisteredClient,
  registerClient,
} from './helpers/oauth-client.js';

// The test issuer reads test/fixtures/issuer/catalog.config.json, whose merchant.url is this
// origin and which names no base_url: its MCP endpoint is the default served resource.
const MCP = 'https://pomona-juice.example/mcp';
const UNKNOWN = 'https://elsewhere.example/mcp';

describeEachDatabase('resource indicators (RFC 8707) on %s', (kind) => {
  let issuer: TestIssuer;
  let as: oauth.AuthorizationServer;
  let client: RegisteredClient;

  beforeAll(async () => {
    issuer = await startTestIssuer({ kind });
    as = await discover(issuer.issuer);
    client = await registerClient(as, 'none');
  });
  afterAll(async () => {
    await issuer?.close();
  });

  async function tokensFor(resource: string | undefined) {
    const extraParams: Record<string, string> = resource ? { resource } : {};
    return authorize(as, client, { credentials: issuer.customer, extraParams });
  }

  async function refresh(refreshToken: string, resources: string[]) {
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.client.client_id,
    });
    for (const r of resources) body.append('resource', r);
    const response = await fetch(String(as.token_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('when a client names the MCP endpoint then the access token is for that resource alone', async () => {
    const { tokens } = await tokensFor(MCP);
    const jwks = createRemoteJWKSet(new URL(String(as.jwks_uri)));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: issuer.issuer,
      audience: MCP,
      typ: 'at+jwt',
    });
    expect(payload.aud).toBe(MCP);
  });

  it('when no resource is named then the audience is the issuer, as before', async () => {
    const { tokens } = await tokensFor(undefined);
    expect(decodeJwt(tokens.access_token).aud).toBe(issuer.issuer);
  });

  it('when the authorization request names an unknown resource then nothing is issued (invalid_target)', async () => {
    const { url } = await buildAuthorizationUrl(as, client, 'openid');
    url.searchParams.set('resource', UNKNOWN);
    const agent = new FormAgent(new URL(issuer.issuer).origin);
    const page = await agent.request(url.href);
    // A browser that has not signed in is not redirected (RFC 9700 §4.11.2): the page names the error.
    expect(page.status).toBe(400);
    expect(page.html).toContain('invalid_target');
  });

  it('when a signed-in browser names an unknown resource then the client receives invalid_target', async () => {
    const agent = new FormAgent(new URL(issuer.issuer).origin);
    await authorize(as, client, { credentials: issuer.customer, agent });
    const { url } = await buildAuthorizationUrl(as, client, 'openid');
    url.searchParams.set('resource', UNKNOWN);
    const page = await agent.request(url.href);
    expect(page.status).toBe(303);
    const callback = new URL(page.location ?? '');
    expect(callback.searchParams.get('error')).toBe('invalid_target');
  });

  it('when a resource is a relative reference or carries a fragment then it is invalid_target', async () => {
    for (const bad of ['/mcp', `${MCP}#frag`]) {
      const { url } = await buildAuthorizationUrl(as, client, 'openid');
      url.searchParams.set('resource', bad);
      const page = await new FormAgent(new URL(issuer.issuer).origin).request(url.href);
      expect(page.status).toBe(400);
      expect(page.html).toContain('invalid_target');
    }
  });

  it('when a refresh asks for a resource outside the grant then it is refused and the token still works', async () => {
    const { tokens } = await tokensFor(MCP);
    const widened = await refresh(tokens.refresh_token ?? '', [issuer.issuer]);
    expect(widened).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const unknown = await refresh(tokens.refresh_token ?? '', [UNKNOWN]);
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    // Refused before the token was spent: the same refresh token still mints the granted audience.
    const same = await refresh(tokens.refresh_token ?? '', []);
    expect(same.status).toBe(200);
    expect(decodeJwt(String(same.body.access_token)).aud).toBe(MCP);
  });

  it('when a grant without resource is refreshed for the MCP endpoint then that widening is refused', async () => {
    const { tokens } = await tokensFor(undefined);
    const widened = await refresh(tokens.refresh_token ?? '', [MCP]);
    expect(widened).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('when a grant names two resources then a refresh may narrow the token to one of them', async () => {
    const { url, verifier, state } = await buildAuthorizationUrl(as, client, 'openid offline_access');
    url.searchParams.append('resource', MCP);
    url.searchParams.append('resource', issuer.issuer);
    const agent = new FormAgent(new URL(issuer.issuer).origin);
    const callback = await authorizeInBrowser(agent, url.href, issuer.customer);
    expect(callback.searchParams.get('state')).toBe(state);
    const exchanged = await postForm(String(as.token_endpoint), {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      client_id: client.client.client_id,
    });
    expect(exchanged.status).toBe(200);
    expect(decodeJwt(String(exchanged.body.access_token)).aud).toEqual([MCP, issuer.issuer]);
    const narrowed = await refresh(String(exchanged.body.refresh_token), [MCP]);
    expect(narrowed.status).toBe(200);
    expect(decodeJwt(String(narrowed.body.access_token)).aud).toBe(MCP);
  });

  it('when the code exchange names a resource outside the grant then the code is not spent', async () => {
    const { url, verifier } = await buildAuthorizationUrl(as, client, 'openid');
    url.searchParams.set('resource', MCP);
    const callback = await authorizeInBrowser(
      new FormAgent(new URL(issuer.issuer).origin),
      url.href,
      issuer.customer,
    );
    const form = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      client_id: client.client.client_id,
    };
    const widened = await postForm(String(as.token_endpoint), { ...form, resource: issuer.issuer });
    expect(widened).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const plain = await postForm(String(as.token_endpoint), form);
    expect(plain.status).toBe(200);
    expect(decodeJwt(String(plain.body.access_token)).aud).toBe(MCP);
  });

  it('when userinfo receives a token for the MCP endpoint then it answers (the issuer serves that resource)', async () => {
    const { tokens } = await tokensFor(MCP);
    const response = await fetch(String(as.userinfo_endpoint), {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: issuer.customer.email });
  });
});
