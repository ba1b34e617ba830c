import { readdir, readFile } from 'node:fs/promises';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateBearer, bearerChallenge } from '../../access-token/bearer-challenge.js';
import { createOrdersApi } from '../../access-token/examples/orders-api.js';
import {
  mcpEndpointOf,
  protectedResourceMetadataUrlOf,
  userinfoEndpointOf,
} from '../../access-token/resource-urls.js';
import {
  AccessTokenError,
  createAccessTokenVerifier,
  KeySetUnavailableError,
} from '../../access-token/verify-access-token.js';
import { callsTool } from '../../live/account/account-guard.js';
import {
  CUSTOMER_PROFILE_TOOL,
  CustomerProfileError,
  customerProfileResult,
  getCustomerProfile,
} from '../../live/account/customer-profile.js';
import { describeEachDatabase } from '../auth-server/helpers/databases.js';
import { createMovableClock, startTestIssuer, type TestIssuer } from '../auth-server/helpers/issuer.js';
import {
  authorize,
  discover,
  type RegisteredClient,
  registerClient,
} from '../auth-server/helpers/oauth-client.js';
import { type FetchServer, serveFetchHandler } from '../helpers/fetch-server.js';

const MCP = 'https://pomona-juice.example/mcp';
const ORDERS = 'https://api.pomona-juice.example/orders';

describe('resource URLs', () => {
  it('the MCP endpoint sits under base_url and its metadata URL has the path inserted (RFC 9728 §3.1)', () => {
    expect(mcpEndpointOf('https://shop.example/api')).toBe('https://shop.example/api/mcp');
    expect(protectedResourceMetadataUrlOf('https://shop.example/api/mcp')).toBe(
      'https://shop.example/.well-known/oauth-protected-resource/api/mcp',
    );
    expect(protectedResourceMetadataUrlOf('https://shop.example')).toBe(
      'https://shop.example/.well-known/oauth-protected-resource',
    );
    expect(userinfoEndpointOf('https://auth.shop.example')).toBe('https://auth.shop.example/oauth/userinfo');
  });

  it('the shared folder stays web-standard: no Node built-ins, no process, no Buffer', async () => {
    const folder = new URL('../../access-token/', import.meta.url);
    const files = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const text = await readFile(new URL(file, folder), 'utf8');
      expect(text, file).not.toMatch(/from 'node:|\bprocess\.|\bBuffer\b|require\(/);
    }
  });
});

describe('the documented example', () => {
  it('docs/issuer.md quotes access-token/examples/orders-api.ts exactly', async () => {
    const docs = await readFile(new URL('../../docs/issuer.md', import.meta.url), 'utf8');
    const example = await readFile(
      new URL('../../access-token/examples/orders-api.ts', import.meta.url),
      'utf8',
    );
    expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});

describe('the challenge header', () => {
  it('names the metadata and the scopes, with the error when there is one', () => {
    const options = {
      resourceMetadataUrl: 'https://s.example/.well-known/oauth-protected-resource/mcp',
      scopes: ['profile', 'email'],
    };
    expect(bearerChallenge(options)).toBe(
      'Bearer resource_metadata="https://s.example/.well-known/oauth-protected-resource/mcp", scope="profile email"',
    );
    expect(bearerChallenge(options, { code: 'insufficient_scope', description: 'more' })).toBe(
      'Bearer error="insufficient_scope", error_description="more", resource_metadata="https://s.example/.well-known/oauth-protected-resource/mcp", scope="profile email"',
    );
  });
});

describeEachDatabase('tokens verified by a resource of their own on %s', (kind) => {
  const clock = createMovableClock();
  let issuer: TestIssuer;
  let as: oauth.AuthorizationServer;
  let client: RegisteredClient;
  let api: FetchServer;

  beforeAll(async () => {
    issuer = await startTestIssuer({ kind, clock: clock.now, config: { resources: [MCP, ORDERS] } });
    as = await discover(issuer.issuer);
    client = await registerClient(as, 'none');
    api = await serveFetchHandler(createOrdersApi({ issuer: issuer.issuer, resource: ORDERS }));
  });
  afterAll(async () => {
    await api?.close();
    await issuer?.close();
  });

  async function tokenFor(resource: string, scope = 'openid profile email') {
    const { tokens } = await authorize(as, client, {
      credentials: issuer.customer,
      scope,
      extraParams: { resource },
    });
    return tokens.access_token;
  }

  async function callApi(token?: string) {
    const response = await fetch(
      `${api.origin}/orders`,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );
    return {
      status: response.status,
      challenge: response.headers.get('www-authenticate') ?? '',
      body: await response.text(),
    };
  }

  it('when a token was minted for this API then the example API answers with the customer', async () => {
    const answer = await callApi(await tokenFor(ORDERS));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      customer: issuer.customer.id,
      app: client.client.client_id,
    });
  });

  it('when no token is sent then 401 names the resource metadata and the scope, without an error code', async () => {
    const answer = await callApi();
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain(`resource_metadata="${protectedResourceMetadataUrlOf(ORDERS)}"`);
    expect(answer.challenge).toContain('scope="openid"');
    expect(answer.challenge).not.toContain('error=');
  });

  it('when the token was minted for another resource then it is refused with 401 invalid_token', async () => {
    const answer = await callApi(await tokenFor(MCP));
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
  });

  it('when the token carries no resource (the issuer audience) then this API refuses it', async () => {
    const { tokens } = await authorize(as, client, { credentials: issuer.customer });
    expect((await callApi(tokens.access_token)).status).toBe(401);
  });

  it('when the token has expired then it is refused with 401', async () => {
    const token = await tokenFor(ORDERS);
    const verify = createAccessTokenVerifier({
      issuer: issuer.issuer,
      resource: ORDERS,
      now: () => clock.now() + 11 * 60 * 1000,
    });
    await expect(verify(token)).rejects.toBeInstanceOf(AccessTokenError);
    const guard = { verify, resourceMetadataUrl: protectedResourceMetadataUrlOf(ORDERS), scopes: [] };
    const outcome = await authenticateBearer(
      new Request('https://api.example/orders', { headers: { authorization: `Bearer ${token}` } }),
      guard,
    );
    expect(outcome.ok ? 200 : outcome.response.status).toBe(401);
  });

  it('when a token is forged with another key (same kid, same claims) then it is refused with 401', async () => {
    const real = await tokenFor(ORDERS);
    const [header, payload] = real
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(payload).setProtectedHeader(header).sign(privateKey);
    expect((await callApi(forged)).status).toBe(401);
    // And signed with alg none, or by a key the JWKS does not hold at all.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ ...header, alg: 'none' })}.${encode(payload)}.`;
    expect((await callApi(unsigned)).status).toBe(401);
    const other = await generateKeyPair('ES256');
    const strangerKid = await new SignJWT(payload)
      .setProtectedHeader({ ...header, kid: (await exportJWK(other.publicKey)).x ?? 'x' })
      .sign(other.privateKey);
    expect((await callApi(strangerKid)).status).toBe(401);
  });

  it('when a token lacks the scope then the answer is 403 insufficient_scope naming the scope', async () => {
    const verify = createAccessTokenVerifier({ issuer: issuer.issuer, resource: MCP });
    const token = await tokenFor(MCP, 'openid email');
    const guard = {
      verify,
      resourceMetadataUrl: protectedResourceMetadataUrlOf(MCP),
      scopes: CUSTOMER_PROFILE_TOOL.scopes,
    };
    const outcome = await authenticateBearer(
      new Request(MCP, { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
      guard,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.response.status).toBe(403);
    expect(outcome.response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(outcome.response.headers.get('www-authenticate')).toContain('scope="openid profile email"');
  });

  it('when a token is sent in the URL then it is refused with 400, never read', async () => {
    const token = await tokenFor(ORDERS);
    const response = await fetch(`${api.origin}/orders?access_token=${token}`);
    expect(response.status).toBe(400);
  });

  it('get_customer_profile returns the signed-in customer from userinfo with the MCP token', async () => {
    const token = await tokenFor(MCP);
    const verify = createAccessTokenVerifier({ issuer: issuer.issuer, resource: MCP });
    const outcome = await authenticateBearer(
      new Request(MCP, { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
      {
        verify,
        resourceMetadataUrl: protectedResourceMetadataUrlOf(MCP),
        scopes: CUSTOMER_PROFILE_TOOL.scopes,
      },
    );
    expect(outcome.ok).toBe(true);
    const profile = await getCustomerProfile({ token, issuer: issuer.issuer, fetch });
    expect(profile).toEqual({
      name: issuer.customer.name,
      email: issuer.customer.email,
      email_verified: false,
    });
    expect(customerProfileResult(profile).structuredContent).toEqual(profile);
  });

  it('get_customer_profile refuses a token whose grant was revoked, which only the issuer knows', async () => {
    const token = await tokenFor(MCP);
    await fetch(String(as.revocation_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: client.client.client_id }),
    });
    const error = await getCustomerProfile({ token, issuer: issuer.issuer, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustomerProfileError);
    expect((error as CustomerProfileError).code).toBe('invalid_token');
  });
});

describe('which MCP requests the account guard checks', () => {
  const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });
  it('a call of get_customer_profile, alone or in a batch, is checked; catalog calls and lists are not', () => {
    expect(callsTool(call('get_customer_profile'), 'get_customer_profile')).toBe(true);
    expect(callsTool([call('search_catalog'), call('get_customer_profile')], 'get_customer_profile')).toBe(
      true,
    );
    expect(callsTool(call('search_catalog'), 'get_customer_profile')).toBe(false);
    expect(callsTool({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'get_customer_profile')).toBe(false);
    expect(callsTool('not json-rpc', 'get_customer_profile')).toBe(false);
  });
});

describe('when the key set cannot be fetched', () => {
  let jwks: FetchServer;
  let answer: () => Response = () => new Response('down', { status: 500 });
  let signed: string;
  beforeAll(async () => {
    jwks = await serveFetchHandler(async () => answer());
    const { privateKey } = await generateKeyPair('ES256');
    signed = await new SignJWT({ client_id: 'agent', scope: 'openid' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
      .setIssuer(jwks.origin)
      .setAudience(MCP)
      .setSubject('customer-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  });
  afterAll(async () => {
    await jwks?.close();
  });
  const verifier = () => createAccessTokenVerifier({ issuer: jwks.origin, resource: MCP });

  it('a JWKS answering 500 is KeySetUnavailableError, not a verdict on the token', async () => {
    await expect(verifier()(signed)).rejects.toBeInstanceOf(KeySetUnavailableError);
  });

  it('an issuer that refuses connections is KeySetUnavailableError', async () => {
    const gone = await serveFetchHandler(async () => new Response(null));
    await gone.close();
    const verify = createAccessTokenVerifier({ issuer: gone.origin, resource: MCP });
    await expect(verify(signed)).rejects.toBeInstanceOf(KeySetUnavailableError);
  });

  it('a reachable key set without the key of the token is a verdict: AccessTokenError', async () => {
    const other = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(other.publicKey)), kid: 'k2', alg: 'ES256' };
    answer = () => Response.json({ keys: [jwk] });
    await expect(verifier()(signed)).rejects.toBeInstanceOf(AccessTokenError);
  });
});
