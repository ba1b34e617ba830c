import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER_CAPABILITIES } from '../../auth-server/metadata.js';
import { FormAgent, parseForms } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import {
  authorize,
  buildAuthorizationUrl,
  discover,
  postForm,
  type RegisteredClient,
  registerClient,
} from './helpers/oauth-client.js';

async function register(issuer: string, body: unknown, contentType = 'application/json') {
  const response = await fetch(`${issuer}/oauth/clients/register`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('the issuer refuses what it must', () => {
  let issuer: TestIssuer;
  let as: oauth.AuthorizationServer;
  let publicClient: RegisteredClient;
  let credentials: { email: string; password: string };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    as = await discover(issuer.issuer);
    publicClient = await registerClient(as, 'none');
    credentials = issuer.customer;
  });
  afterAll(() => issuer.close());

  describe('registration (RFC 7591)', () => {
    it.each([
      ['javascript:alert(1)'],
      ['data:text/html,hi'],
      ['file:///etc/passwd'],
      ['http://app.example/cb'],
      ['https://app.example/cb#frag'],
      ['/relative/cb'],
      ['myapp:/cb'],
    ])('refuses the redirect URI %s with invalid_redirect_uri', async (uri) => {
      const result = await register(issuer.issuer, {
        redirect_uris: [uri],
        token_endpoint_auth_method: 'none',
      });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_redirect_uri');
    });

    it.each([
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['password'] }],
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }],
      [{ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }],
      [{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }],
      [{ redirect_uris: ['https://a.example/cb'], logo_uri: 'https://elsewhere.example/logo.png' }],
      [{ redirect_uris: ['https://a.example/cb'], scope: 'openid admin' }],
      [{ redirect_uris: ['https://a.example/cb'], client_name: 42 }],
    ])('refuses bad metadata %j with invalid_client_metadata', async (body) => {
      const result = await register(issuer.issuer, body);
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_client_metadata');
    });

    it('refuses a body that is not JSON', async () => {
      expect((await register(issuer.issuer, '{nope')).body.error).toBe('invalid_client_metadata');
      expect((await register(issuer.issuer, 'a=b', 'application/x-www-form-urlencoded')).status).toBe(400);
    });

    it('answers 201, echoes the metadata with defaults, ignores unknown fields and never stores the secret in the clear', async () => {
      const result = await register(issuer.issuer, {
        redirect_uris: ['https://app.example/cb', 'com.example.app:/cb', 'http://[::1]/cb'],
        client_name: 'Echo',
        logo_uri: 'https://app.example/logo.png',
        frobnicate: true,
      });
      expect(result.status).toBe(201);
      expect(result.headers.get('cache-control')).toBe('no-store');
      expect(result.body).toMatchObject({
        client_name: 'Echo',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret_expires_at: 0,
        logo_uri: 'https://app.example/logo.png',
      });
      expect(typeof result.body.client_id_issued_at).toBe('number');
      expect(result.body.frobnicate).toBeUndefined();
      const secret = String(result.body.client_secret);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
      const stored = await issuer.store.findClient(String(result.body.client_id));
      expect(stored?.secretHash).not.toBe(secret);
      expect(stored?.secretHash).toHaveLength(43);
    });

    it('gives a public client no secret', async () => {
      const result = await register(issuer.issuer, {
        redirect_uris: ['https://a.example/cb'],
        token_endpoint_auth_method: 'none',
      });
      expect(result.status).toBe(201);
      expect(result.body.client_secret).toBeUndefined();
      expect(result.body.client_secret_expires_at).toBeUndefined();
    });
  });

  describe('authorization endpoint', () => {
    async function authorizeWith(params: Record<string, string | undefined>, agent?: FormAgent) {
      const { url } = await buildAuthorizationUrl(as, publicClient, 'openid');
      for (const [k, v] of Object.entries(params)) {
        if (v === undefined) url.searchParams.delete(k);
        else url.searchParams.set(k, v);
      }
      return (agent ?? new FormAgent(new URL(issuer.issuer).origin)).get(url.href);
    }

    async function signedInAgent(): Promise<FormAgent> {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      await agent.submit(await agent.get('/account'), 'Sign in', {
        Email: credentials.email,
        Password: credentials.password,
      });
      return agent;
    }

    it('shows an error page and never redirects for an unknown client', async () => {
      const page = await authorizeWith({ client_id: 'no-such-client' });
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
    });

    it('shows an error page and never redirects for an unregistered redirect URI', async () => {
      for (const uri of ['https://evil.example/cb', 'http://127.0.0.1:9/callback/extra', undefined]) {
        const page = await authorizeWith({ redirect_uri: uri });
        expect(page.status).toBe(400);
        expect(page.location).toBeUndefined();
      }
    });

    it('accepts any port on a registered loopback redirect URI (RFC 8252 §7.3)', async () => {
      const page = await authorizeWith({ redirect_uri: 'http://127.0.0.1:54321/callback' });
      expect(page.status).toBe(200);
    });

    it.each([
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: undefined }, 'invalid_request'],
      [{ scope: 'openid admin' }, 'invalid_scope'],
      [{ scope: undefined }, 'invalid_scope'],
      [{ prompt: 'none', nonce: 'n' }, 'consent_required'],
      [{ request: 'eyJ.e30.' }, 'request_not_supported'],
    ])(
      'for a signed-in browser, sends %j back to the client as %s with state and iss',
      async (params, error) => {
        const page = await authorizeWith({ ...params, state: 'xyz' }, await signedInAgent());
        expect(page.status).toBe(303);
        const location = new URL(page.location ?? '');
        expect(location.origin + location.pathname).toBe(publicClient.redirectUri);
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('state')).toBe('xyz');
        expect(location.searchParams.get('iss')).toBe(issuer.issuer);
      },
    );

    it.each([
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'openid admin' }, 'invalid_scope'],
      [{ request: 'eyJ.e30.' }, 'request_not_supported'],
    ])(
      'for a browser that has not signed in, shows %j as a %s page and does not redirect',
      async (params, error) => {
        const page = await authorizeWith({ ...params, state: 'xyz' });
        expect(page.status).toBe(400);
        expect(page.location).toBeUndefined();
        expect(page.html).toContain(error);
      },
    );

    it('a valid prompt=none request from a browser that has not signed in gets login_required', async () => {
      const page = await authorizeWith({ prompt: 'none', state: 'xyz' });
      expect(page.status).toBe(303);
      expect(new URL(page.location ?? '').searchParams.get('error')).toBe('login_required');
    });

    it('Deny sends access_denied to the client', async () => {
      const { url, state } = await buildAuthorizationUrl(as, publicClient, 'openid');
      const { authorizeInBrowser } = await import('./helpers/form-agent.js');
      const callback = await authorizeInBrowser(
        new FormAgent(new URL(issuer.issuer).origin),
        url.href,
        credentials,
        'Deny',
      );
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('code')).toBeNull();
    });

    it('a wrong password shows the form again and starts no session', async () => {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const { url } = await buildAuthorizationUrl(as, publicClient, 'openid');
      const page = await agent.get(url.href);
      for (const email of [credentials.email, 'nobody@example.com']) {
        const result = await agent.submit(page, 'Sign in', { Email: email, Password: 'wrong password' });
        expect(result.status).toBe(401);
        expect(parseForms(result.html).some((f) => f.buttons.some((b) => b.text === 'Sign in'))).toBe(true);
      }
      expect([...agent.cookies.keys()].some((k) => k.includes('session'))).toBe(false);
    });

    it('refuses a sign-in form posted without the CSRF token', async () => {
      const response = await fetch(`${issuer.issuer}/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: credentials.email, password: credentials.password }).toString(),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie') ?? '').not.toContain('session');
    });

    it('an interaction started in one browser cannot be finished in another', async () => {
      const { url } = await buildAuthorizationUrl(as, publicClient, 'openid');
      const first = new FormAgent(new URL(issuer.issuer).origin);
      const page = await first.get(url.href);
      const interaction = parseForms(page.html)[0]?.inputs.find((i) => i.name === 'interaction')?.value;
      const other = new FormAgent(new URL(issuer.issuer).origin);
      const stolen = await other.get(`/interaction/${interaction}`);
      expect(stolen.status).toBe(400);
    });
  });

  describe('token endpoint (RFC 6749 §5.2)', () => {
    const tokenUrl = () => as.token_endpoint ?? '';

    it('answers 401 invalid_client with a Basic challenge when Basic credentials are wrong', async () => {
      const confidential = await registerClient(as, 'client_secret_basic');
      const basic = `Basic ${Buffer.from(`${confidential.client.client_id}:wrong`).toString('base64')}`;
      const result = await postForm(
        tokenUrl(),
        { grant_type: 'authorization_code', code: 'x' },
        { authorization: basic },
      );
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('invalid_client');
      expect(result.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(result.headers.get('cache-control')).toBe('no-store');
    });

    it('answers 401 invalid_client without a Basic challenge when a posted secret is wrong', async () => {
      const confidential = await registerClient(as, 'client_secret_post');
      const result = await postForm(tokenUrl(), {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: confidential.client.client_id,
        client_secret: 'wrong',
      });
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('invalid_client');
      expect(result.headers.get('www-authenticate')).toBeNull();
    });

    it('refuses a confidential client that presents no secret', async () => {
      const confidential = await registerClient(as, 'client_secret_basic');
      const result = await postForm(tokenUrl(), {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: confidential.client.client_id,
      });
      expect(result.body.error).toBe('invalid_client');
    });

    it.each(['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'])(
      'refuses the unadvertised grant type %s',
      async (grantType) => {
        expect(ISSUER_CAPABILITIES.grantTypes as readonly string[]).not.toContain(grantType);
        const result = await postForm(tokenUrl(), {
          grant_type: grantType,
          client_id: publicClient.client.client_id,
        });
        expect(result.status).toBe(400);
        expect(result.body.error).toBe('unsupported_grant_type');
      },
    );

    it('refuses an unknown code, a wrong verifier, a wrong redirect URI and a missing verifier', async () => {
      const base = {
        grant_type: 'authorization_code',
        client_id: publicClient.client.client_id,
        redirect_uri: publicClient.redirectUri,
      };
      const unknown = await postForm(tokenUrl(), { ...base, code: 'nope', code_verifier: 'a'.repeat(43) });
      expect(unknown.body.error).toBe('invalid_grant');

      async function freshCode() {
        const built = await buildAuthorizationUrl(as, publicClient, 'openid');
        const { authorizeInBrowser } = await import('./helpers/form-agent.js');
        const callback = await authorizeInBrowser(
          new FormAgent(new URL(issuer.issuer).origin),
          built.url.href,
          credentials,
        );
        return { code: callback.searchParams.get('code') ?? '', verifier: built.verifier };
      }
      const a = await freshCode();
      expect(
        (await postForm(tokenUrl(), { ...base, code: a.code, code_verifier: 'b'.repeat(43) })).body.error,
      ).toBe('invalid_grant');
      const b = await freshCode();
      const wrongRedirect = await postForm(tokenUrl(), {
        ...base,
        code: b.code,
        code_verifier: b.verifier,
        redirect_uri: 'http://127.0.0.1:9/other',
      });
      expect(wrongRedirect.body.error).toBe('invalid_grant');
      const c = await freshCode();
      const missing = await postForm(tokenUrl(), { ...base, code: c.code });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
    });

    it('refuses a repeated parameter and a JSON body with invalid_request', async () => {
      const repeated = await fetch(tokenUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&grant_type=refresh_token&client_id=${publicClient.client.client_id}`,
      });
      expect(repeated.status).toBe(400);
      expect(((await repeated.json()) as { error: string }).error).toBe('invalid_request');
      const json = await fetch(tokenUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    });

    it('issues no refresh token to a client that did not register the refresh_token grant', async () => {
      const codeOnly = await registerClient(as, 'none', { grant_types: ['authorization_code'] });
      const { tokens } = await authorize(as, codeOnly, { credentials, scope: 'openid offline_access' });
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.scope).toBe('openid');
    });
  });

  describe('userinfo (RFC 6750 §3)', () => {
    let accessToken: string;
    let noOpenId: string;
    beforeAll(async () => {
      accessToken = (await authorize(as, publicClient, { credentials, scope: 'openid email' })).tokens
        .access_token;
      noOpenId = (await authorize(as, publicClient, { credentials, scope: 'email' })).tokens.access_token;
    });
    const userinfo = () => as.userinfo_endpoint ?? '';

    it('without credentials answers 401 with a Bearer realm challenge and no error code', async () => {
      const response = await fetch(userinfo());
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="/);
      expect(challenge).not.toContain('error=');
    });

    it('refuses a token in the query string', async () => {
      const response = await fetch(`${userinfo()}?access_token=${accessToken}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
    });

    it('answers 401 invalid_token for a bad token', async () => {
      const response = await fetch(userinfo(), {
        headers: { authorization: `Bearer ${accessToken.slice(0, -4)}AAAA` },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('answers 403 insufficient_scope for a token without openid', async () => {
      const response = await fetch(userinfo(), { headers: { authorization: `Bearer ${noOpenId}` } });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    });

    it('answers GET and POST with the header, and only the claims the scope allows', async () => {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(userinfo(), {
          method,
          headers: { authorization: `Bearer ${accessToken}` },
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as Record<string, unknown>;
        expect(body.email).toBe(credentials.email);
        expect(body.name).toBeUndefined();
      }
    });
  });

  describe('pages', () => {
    it('send CSP with frame-ancestors none, no-referrer, and load nothing from elsewhere', async () => {
      const { url } = await buildAuthorizationUrl(as, publicClient, 'openid');
      const page = await new FormAgent(new URL(issuer.issuer).origin).get(url.href);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      // Links to the merchant's store and policies are expected; loading anything is not.
      expect(page.html).not.toMatch(/<script|src="http|<link[^>]+href="http/);
    });

    it('label the fields Email and Password, and no other control uses the reserved words', async () => {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const { url } = await buildAuthorizationUrl(as, publicClient, 'openid');
      const signIn = await agent.get(url.href);
      const consent = await agent.follow(
        await agent.submit(signIn, 'Sign in', { Email: credentials.email, Password: credentials.password }),
      );
      const account = await agent.get('/account');
      const reserved = ['Email', 'Password', 'Sign in', 'Allow', 'Deny', 'Sign out'];
      const expected: Record<string, string[]> = {
        signIn: ['Sign in'],
        consent: ['Allow', 'Deny'],
        account: ['Sign out'],
      };
      for (const [name, page] of Object.entries({ signIn, consent, account })) {
        const buttons = parseForms(page.html).flatMap((f) => f.buttons.map((b) => b.text));
        const reservedButtons = buttons.filter((b) =>
          reserved.some((r) => b.toLowerCase().includes(r.toLowerCase())),
        );
        expect(reservedButtons.sort()).toEqual((expected[name] ?? []).sort());
      }
      const labels = [...(parseForms(signIn.html)[0]?.labels.keys() ?? [])];
      expect(labels.sort()).toEqual(['Email', 'Password']);
      expect(consent.html).toMatch(/Unverified app/);
    });
  });
});
