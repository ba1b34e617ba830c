/**
 * The MCP endpoint's one account tool, `get_customer_profile`, through the live core: the
 * guard answers at the HTTP level for that tool only (401 with the Bearer challenge, 403
 * for a missing scope), the catalog tools and `tools/list` need no token, a good token gets
 * the profile from userinfo, and an unreachable issuer is never a 5xx with a stack. The
 * issuer here is a loopback server with a key of the test's own (JWKS and userinfo); the
 * real issuer is driven end to end in test/access-token/mcp-oauth-flow.test.ts.
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FetchServer, serveFetchHandler } from '../helpers/fetch-server.js';
import { type LiveBundle, liveFetch } from './live-bundle.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';

const BASE_URL = 'https://juice.example';
const ENDPOINT = `${BASE_URL}/mcp`;
const CHALLENGE_URL = 'https://juice.example/.well-known/oauth-protected-resource/mcp';
const PROFILE = { name: 'Ada Lovelace', email: 'ada@shop.test', email_verified: true };

let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let issuer: FetchServer;
let userinfoStatus = 200;
let bundle: LiveBundle;

beforeAll(async () => {
  keys = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  issuer = await serveFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/.well-known/jwks.json') return Response.json({ keys: [jwk] });
    if (path === '/oauth/userinfo') {
      if (!request.headers.get('authorization')?.startsWith('Bearer '))
        return new Response(null, { status: 401 });
      return userinfoStatus === 200
        ? Response.json(PROFILE)
        : new Response('down', { status: userinfoStatus });
    }
    return new Response('not found', { status: 404 });
  });
  bundle = await syntheticLiveBundle(10, BASE_URL, issuer.origin);
});
afterAll(async () => {
  await issuer?.close();
});

async function token(claims: JWTPayload = {}, expiresIn = '5m'): Promise<string> {
  return new SignJWT({ client_id: 'agent', scope: 'openid profile email', aud: ENDPOINT, ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
    .setIssuer(issuer.origin)
    .setSubject('customer-1')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(keys.privateKey);
}

function callTool(target: LiveBundle, name: string, args: unknown, bearer?: string): Promise<Response> {
  return liveFetch(target)(ENDPOINT, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
}

type ToolAnswer = { result: { isError?: boolean; structuredContent?: unknown; content: { text: string }[] } };

describe('get_customer_profile on the MCP endpoint', () => {
  it('without a token answers 401 with the Bearer challenge naming the metadata and the scopes', async () => {
    const response = await callTool(bundle, 'get_customer_profile', {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${CHALLENGE_URL}", scope="openid profile email"`,
    );
  });

  it('leaves the catalog tools public: no token, no challenge', async () => {
    const response = await callTool(bundle, 'search_catalog', { catalog: { query: 'juice' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(((await response.json()) as ToolAnswer).result.isError).toBeFalsy();
  });

  it('lists the profile tool as read-only, saying which scopes it needs', async () => {
    const response = await liveFetch(bundle)(ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as {
      result: { tools: { name: string; description: string; annotations: { readOnlyHint: boolean } }[] };
    };
    const tool = result.tools.find((t) => t.name === 'get_customer_profile');
    expect(tool?.annotations.readOnlyHint).toBe(true);
    expect(tool?.description).toContain('openid profile email');
  });

  it('answers 403 insufficient_scope for a good token without the email scope', async () => {
    const response = await callTool(
      bundle,
      'get_customer_profile',
      {},
      await token({ scope: 'openid profile' }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('answers 401 invalid_token for a token minted for another resource', async () => {
    const response = await callTool(
      bundle,
      'get_customer_profile',
      {},
      await token({ aud: 'https://api.juice.example' }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it("returns the customer's name and e-mail from userinfo for a good token", async () => {
    const response = await callTool(bundle, 'get_customer_profile', {}, await token());
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as ToolAnswer;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(PROFILE);
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(PROFILE);
  });

  it('turns a failing userinfo into a tool error result, not a 5xx', async () => {
    userinfoStatus = 502;
    try {
      const response = await callTool(bundle, 'get_customer_profile', {}, await token());
      expect(response.status).toBe(200);
      const { result } = (await response.json()) as ToolAnswer;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toContain('502');
    } finally {
      userinfoStatus = 200;
    }
  });

  it('answers 503 with Retry-After and no stack when the issuer cannot be reached', async () => {
    const gone = await serveFetchHandler(async () => new Response(null));
    await gone.close();
    const unreachable = await syntheticLiveBundle(10, BASE_URL, gone.origin);
    const response = await callTool(unreachable, 'get_customer_profile', {}, await token());
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    const text = await response.text();
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
    expect((JSON.parse(text) as { error: { message: string } }).error.message).toContain('cannot be reached');
    // The catalog still answers without the issuer.
    expect((await callTool(unreachable, 'get_product', { catalog: { id: 'x' } })).status).toBe(200);
  });

  it('answers 503, never a crash, in a bundle that names no issuer (built before the account tool)', async () => {
    const older = await syntheticLiveBundle(10, BASE_URL, '');
    const response = await callTool(older, 'get_customer_profile', {}, await token());
    expect(response.status).toBe(503);
    expect((JSON.parse(await response.text()) as { error: { message: string } }).error.message).toContain(
      'names no issuer',
    );
    expect((await callTool(older, 'search_catalog', { catalog: {} })).status).toBe(200);
  });
});
