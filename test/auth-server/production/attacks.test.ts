/**
 * The attacks of the white-box review (issue 12), replayed over real HTTP on loopback
 * against a fresh issuer on SQLite and on PostgreSQL, each now refused: the authorization
 * and sign-out endpoints as open redirects, skipping the fresh sign-in that prompt=login
 * and max_age demand, spoofing the consent page through client_name, and malformed input
 * (bad percent-encoding, out-of-range ports, NUL bytes) that used to answer 500.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import { decodeEntities, FormAgent, type Page, parseForms } from '../helpers/form-agent.js';
import { postForm, postJson } from './helpers/http.js';
import { CUSTOMER, type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';

const EVIL_LANDING = 'https://evil.example/landing';
const EVIL_PHISH = 'https://evil.example/phish';
const LOOPBACK_CALLBACK = 'http://127.0.0.1:9/callback';

function authorizePath(clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: 'st4te',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  });
  return `/oauth/authorize?${params}`;
}

/** The `error` a redirect back to the app carries (failing unless the page is a 303). */
function redirectedError(page: Page): string | null {
  expect(page.status).toBe(303);
  return new URL(page.location ?? '').searchParams.get('error');
}

function hiddenFields(page: Page): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const form of parseForms(page.html))
    for (const input of form.inputs) if (input.type === 'hidden') fields[input.name] = input.value;
  return fields;
}

function linksOf(page: Page): string[] {
  return [...page.html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => decodeEntities(m[1] ?? ''));
}

describeEachDatabase('the review attacks, now refused, on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let issuer: ProductionIssuer;
  let offsetMs = 0;

  async function registerClient(body: Record<string, unknown>) {
    return postJson(`${issuer.url}/oauth/clients/register`, {
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      ...body,
    });
  }

  async function clientIdFor(body: Record<string, unknown>): Promise<string> {
    const registered = await registerClient(body);
    expect(registered.status).toBe(201);
    return String(registered.body.client_id);
  }

  async function signedInAgent(): Promise<FormAgent> {
    const agent = new FormAgent(issuer.url);
    const done = await agent.submit(await agent.get('/account'), 'Sign in', {
      Email: CUSTOMER.email,
      Password: CUSTOMER.password,
    });
    expect(done.status).toBe(303);
    return agent;
  }

  beforeAll(async () => {
    if (skip) return;
    issuer = await startProductionIssuer({
      kind,
      config: { rateLimit: 0 },
      clock: () => Date.now() + offsetMs,
    });
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  describe('finding 1: the authorization endpoint is not an open redirect', () => {
    it.skipIf(skip)(
      title('an invalid request from a self-registered client shows a page naming the app and host'),
      async () => {
        const clientId = await clientIdFor({ client_name: 'Bouncer App', redirect_uris: [EVIL_LANDING] });
        const bare = `/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(EVIL_LANDING)}`;
        for (const path of [bare, authorizePath(clientId, EVIL_LANDING, { scope: 'admin' })]) {
          const page = await new FormAgent(issuer.url).get(path);
          expect(page.status).toBe(400);
          expect(page.location).toBeUndefined();
          expect(page.html).toContain('Bouncer App');
          expect(page.html).toContain('evil.example');
        }
      },
    );

    it.skipIf(skip)(title('a signed-in customer pressing Deny is still sent back to the app'), async () => {
      const clientId = await clientIdFor({ redirect_uris: [LOOPBACK_CALLBACK] });
      const agent = await signedInAgent();
      const consent = await agent.follow(await agent.get(authorizePath(clientId, LOOPBACK_CALLBACK)));
      expect(redirectedError(await agent.submit(consent, 'Deny'))).toBe('access_denied');
    });

    it.skipIf(skip)(
      title('an invalid request from a signed-in browser goes back to the app with the error'),
      async () => {
        const clientId = await clientIdFor({ redirect_uris: [LOOPBACK_CALLBACK] });
        const agent = await signedInAgent();
        const page = await agent.get(authorizePath(clientId, LOOPBACK_CALLBACK, { scope: 'admin' }));
        expect(redirectedError(page)).toBe('invalid_scope');
      },
    );

    it.skipIf(skip)(
      title('a valid prompt=none request still answers login_required to the app'),
      async () => {
        const clientId = await clientIdFor({ redirect_uris: [LOOPBACK_CALLBACK] });
        const page = await new FormAgent(issuer.url).get(
          authorizePath(clientId, LOOPBACK_CALLBACK, { prompt: 'none' }),
        );
        expect(redirectedError(page)).toBe('login_required');
      },
    );
  });

  describe('finding 2: sign-out is not an open redirect', () => {
    async function phishingClient(): Promise<string> {
      return clientIdFor({
        client_name: 'Logout App',
        redirect_uris: [LOOPBACK_CALLBACK],
        post_logout_redirect_uris: [EVIL_PHISH],
      });
    }
    const logoutPath = (clientId: string) =>
      `/oauth/logout?client_id=${clientId}&post_logout_redirect_uri=${encodeURIComponent(EVIL_PHISH)}&state=s1`;

    it.skipIf(skip)(title('without a session it shows a link back instead of redirecting'), async () => {
      const page = await new FormAgent(issuer.url).get(logoutPath(await phishingClient()));
      expect(page.status).toBe(200);
      expect(page.location).toBeUndefined();
      expect(linksOf(page)).toContain(`${EVIL_PHISH}?state=s1`);
      expect(page.html).toContain('Logout App');
    });

    it.skipIf(skip)(
      title('with a session but no id_token_hint, confirming signs out and shows the link'),
      async () => {
        const agent = await signedInAgent();
        const confirm = await agent.get(logoutPath(await phishingClient()));
        expect(confirm.status).toBe(200);
        const done = await agent.submit(confirm, 'Sign out');
        expect(done.status).toBe(200);
        expect(done.location).toBeUndefined();
        expect(linksOf(done)).toContain(`${EVIL_PHISH}?state=s1`);
        expect((await agent.get('/account')).html).toContain('Sign in');
      },
    );
  });

  describe('finding 2: the trusted sign-out still returns to the app', () => {
    it.skipIf(skip)(
      title('a confirmed sign-out with a valid id_token_hint redirects to the registered URI'),
      async () => {
        const bye = 'http://127.0.0.1:9/bye';
        const clientId = await clientIdFor({
          redirect_uris: [LOOPBACK_CALLBACK],
          post_logout_redirect_uris: [bye],
        });
        const agent = await signedInAgent();
        const verifier = randomBytes(32).toString('base64url');
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        const consent = await agent.follow(
          await agent.get(authorizePath(clientId, LOOPBACK_CALLBACK, { code_challenge: challenge })),
        );
        const callback = new URL((await agent.submit(consent, 'Allow')).location ?? '');
        const tokens = await postForm(`${issuer.url}/oauth/token`, {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code') ?? '',
          redirect_uri: LOOPBACK_CALLBACK,
          code_verifier: verifier,
          client_id: clientId,
        });
        expect(tokens.status).toBe(200);
        const hint = String(tokens.body.id_token);
        const query = new URLSearchParams({
          id_token_hint: hint,
          post_logout_redirect_uri: bye,
          state: 's2',
        });
        const confirm = await agent.get(`/oauth/logout?${query}`);
        const done = await agent.submit(confirm, 'Sign out');
        expect(done.status).toBe(303);
        expect(done.location).toBe(`${bye}?state=s2`);
      },
    );
  });

  describe('finding 6: prompt=login and max_age cannot be skipped', () => {
    /** Signs in, lets `afterSignIn` move the clock, starts the request, posts its sign-in page to /consent. */
    async function consentFromSignInPage(
      extra: Record<string, string>,
      afterSignIn: () => void = () => undefined,
    ): Promise<URL | undefined> {
      const clientId = await clientIdFor({ redirect_uris: [LOOPBACK_CALLBACK] });
      const agent = await signedInAgent();
      afterSignIn();
      const signInPage = await agent.follow(
        await agent.get(authorizePath(clientId, LOOPBACK_CALLBACK, extra)),
      );
      expect(parseForms(signInPage.html).some((f) => f.action === '/signin')).toBe(true);
      const fields = hiddenFields(signInPage);
      const answer = await agent.request('/consent', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          csrf: fields.csrf ?? '',
          interaction: fields.interaction ?? '',
          decision: 'allow',
        }).toString(),
      });
      return answer.location === undefined ? undefined : new URL(answer.location);
    }

    it.skipIf(skip)(
      title('posting the sign-in page of prompt=login to /consent issues no code'),
      async () => {
        const location = await consentFromSignInPage({ prompt: 'login' });
        expect(location?.searchParams.get('code') ?? null).toBeNull();
        expect(location?.origin ?? issuer.url).toBe(new URL(issuer.url).origin);
      },
    );

    it.skipIf(skip)(
      title('posting the sign-in page of an expired max_age to /consent issues no code'),
      async () => {
        try {
          const location = await consentFromSignInPage({ max_age: '60' }, () => {
            offsetMs = 120_000;
          });
          expect(location?.searchParams.get('code') ?? null).toBeNull();
          expect(location?.origin ?? issuer.url).toBe(new URL(issuer.url).origin);
        } finally {
          offsetMs = 0;
        }
      },
    );
  });

  describe('finding 7: client_name cannot spoof the consent page', () => {
    it.skipIf(skip).each([
      ['right-to-left override', 'Acme Store \u202Edeifirev\u202C'],
      ['left-to-right override', 'Acme \u202Dx'],
      ['bidi isolate', 'Acme \u2067x\u2069'],
      ['right-to-left mark', 'Acme\u200F Store'],
      ['zero-width space', 'Ac\u200Bme'],
      ['zero-width joiner', 'Ac\u200Dme'],
      ['byte-order mark', '\uFEFFAcme'],
      ['NUL', 'Acme\u0000Store'],
      ['newline', 'Acme\nverified'],
      ['tab', 'Acme\tStore'],
      ['DEL', 'Acme\u007F'],
      ['C1 control', 'Acme\u0085Store'],
    ])(title('refuses %s in client_name with invalid_client_metadata'), async (_name, value) => {
      const result = await registerClient({ client_name: value, redirect_uris: [LOOPBACK_CALLBACK] });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_client_metadata');
    });

    it.skipIf(skip).each([
      ['software_id', 'soft\u202Eware'],
      ['software_version', '1.0\u200B'],
      ['contacts', ['ops@example.com\u0000']],
    ])(title('refuses spoofing characters in %s too'), async (field, value) => {
      const result = await registerClient({ [field]: value, redirect_uris: [LOOPBACK_CALLBACK] });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_client_metadata');
    });

    it.skipIf(skip)(title('an ordinary international name is still accepted'), async () => {
      const result = await registerClient({
        client_name: 'Café Ünïcode 日本 ☕',
        redirect_uris: [LOOPBACK_CALLBACK],
      });
      expect(result.status).toBe(201);
      expect(result.body.client_name).toBe('Café Ünïcode 日本 ☕');
    });
  });

  describe('finding 8: malformed input is a 4xx, not a 500', () => {
    it.skipIf(skip).each(['/interaction/%ZZ', '/interaction/%C0%AF', '/interaction/%'])(
      title('GET %s answers 400 or 404'),
      async (path) => {
        const response = await fetch(`${issuer.url}${path}`);
        expect([400, 404]).toContain(response.status);
      },
    );

    it.skipIf(skip).each(['99999', '0', '65536'])(
      title('a loopback redirect URI with port %s is refused at authorize with a page'),
      async (port) => {
        const clientId = await clientIdFor({ redirect_uris: [LOOPBACK_CALLBACK] });
        const page = await new FormAgent(issuer.url).get(
          authorizePath(clientId, `http://127.0.0.1:${port}/callback`),
        );
        expect(page.status).toBe(400);
        expect(page.location).toBeUndefined();
      },
    );

    it.skipIf(skip).each(['0', '99999'])(
      title('a redirect URI with port %s is refused at registration'),
      async (port) => {
        const result = await registerClient({ redirect_uris: [`http://127.0.0.1:${port}/callback`] });
        expect(result.status).toBe(400);
        expect(result.body.error).toBe('invalid_redirect_uri');
      },
    );

    it.skipIf(skip)(title('none of it logged an unexpected error'), () => {
      expect(issuer.logs.filter((l) => l.includes('"unexpected error"'))).toEqual([]);
    });
  });

  describe('finding 9: a NUL byte is refused at the edge', () => {
    it.skipIf(skip)(title('in client_name at registration'), async () => {
      const result = await registerClient({ client_name: 'a\u0000b', redirect_uris: [LOOPBACK_CALLBACK] });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_client_metadata');
    });

    it.skipIf(skip)(title('in client_id at authorize'), async () => {
      const page = await new FormAgent(issuer.url).get(authorizePath('a\u0000b', LOOPBACK_CALLBACK));
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
    });

    it.skipIf(skip)(title('in client_id at the token endpoint, in the form and in HTTP Basic'), async () => {
      const form = await postForm(`${issuer.url}/oauth/token`, {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: 'a\u0000b',
      });
      expect(form.status).toBe(400);
      expect(form.body.error).toBe('invalid_request');
      const basic = await postForm(
        `${issuer.url}/oauth/token`,
        { grant_type: 'authorization_code', code: 'x' },
        { authorization: `Basic ${Buffer.from('a%00b:secret').toString('base64')}` },
      );
      expect(basic.status).toBe(400);
      expect(basic.body.error).toBe('invalid_request');
    });

    it.skipIf(skip)(title('in client_id at revocation and sign-out'), async () => {
      const revoke = await postForm(`${issuer.url}/oauth/revoke`, { token: 'x', client_id: 'a\u0000b' });
      expect(revoke.status).toBe(400);
      const logout = await fetch(`${issuer.url}/oauth/logout?client_id=a%00b`);
      expect(logout.status).toBe(400);
    });

    it.skipIf(skip)(title('in the sign-in email'), async () => {
      const agent = new FormAgent(issuer.url);
      const page = await agent.submit(await agent.get('/account'), 'Sign in', {
        Email: 'ann\u0000@example.com',
        Password: 'whatever',
      });
      expect(page.status).toBe(400);
    });

    it.skipIf(skip)(title('and nothing of it logged an unexpected error'), () => {
      expect(issuer.logs.filter((l) => l.includes('"unexpected error"'))).toEqual([]);
    });
  });
});
