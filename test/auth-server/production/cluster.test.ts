/**
 * Two issuer processes on one PostgreSQL database, as behind a load balancer: a customer's
 * browser and an agent's tokens move between them, and the single-use rules (codes,
 * refresh rotation) and the sign-in throttle hold across the two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requires } from '../../helpers/requirements.js';
import { POSTGRES, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import type { Page } from '../helpers/form-agent.js';
import {
  buildAuthorizeUrl,
  buttonsOf,
  getJson,
  pathOf,
  postForm,
  REDIRECT_URI,
  RoamingBrowser,
  register,
} from './helpers/http.js';
import {
  compileIssuer,
  createFreshPostgres,
  type FreshPostgres,
  type IssuerProcess,
  runCli,
  spawnIssuer,
} from './helpers/processes.js';

const ISSUER = 'http://auth.test';
const CUSTOMER = { email: 'cara@example.com', name: 'Cara Example', password: 'a long enough passphrase' };

describe(
  `two issuer processes sharing PostgreSQL ${POSTGRES_URL ? '' : POSTGRES_SKIP_REASON}`,
  requires(POSTGRES),
  () => {
    let database: FreshPostgres;
    let a: IssuerProcess;
    let b: IssuerProcess;
    const urls = () => [a.url, b.url] as const;

    beforeAll(async () => {
      await compileIssuer();
      database = await createFreshPostgres(POSTGRES_URL ?? '');
      // Both start (and migrate) at once, as two instances rolled out together would.
      [a, b] = (await Promise.all(
        [0, 1].map(() => spawnIssuer(['--db', database.url, '--issuer', ISSUER, '--rate-limit', '0'])),
      )) as [IssuerProcess, IssuerProcess];
      const added = await runCli(
        [
          'customers',
          'add',
          '--email',
          CUSTOMER.email,
          '--name',
          CUSTOMER.name,
          '--password-stdin',
          '--db',
          database.url,
        ],
        `${CUSTOMER.password}\n`,
      );
      expect(added.code, added.stderr).toBe(0);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
    });

    /** Signs in and consents, each step on the instance `route` names; returns the code. */
    async function authorizeAcross(
      browser: RoamingBrowser,
      clientId: string,
      route: { start: number; signIn: number; consentPage: number; allow: number },
    ) {
      const request = buildAuthorizeUrl(ISSUER, clientId);
      const path = pathOf(request.url);
      let page: Page = await browser.get(route.start, path);
      if (buttonsOf(page).includes('Sign in')) {
        page = await browser.submit(route.signIn, page, 'Sign in', {
          Email: CUSTOMER.email,
          Password: CUSTOMER.password,
        });
        page = await browser.get(route.consentPage, pathOf(page.location));
      }
      expect(buttonsOf(page)).toContain('Allow');
      const done = await browser.submit(route.allow, page, 'Allow');
      const callback = new URL(done.location ?? '');
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
      expect(callback.searchParams.get('state')).toBe(request.state);
      expect(callback.searchParams.get('iss')).toBe(ISSUER);
      return { code: callback.searchParams.get('code') ?? '', verifier: request.verifier };
    }

    function redeem(base: string, clientId: string, code: string, verifier: string) {
      return postForm(`${base}/oauth/token`, {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
      });
    }

    function refresh(base: string, clientId: string, token: string) {
      return postForm(`${base}/oauth/token`, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: clientId,
      });
    }

    it('a session and its tokens move between the instances: sign in on B, redeem on B, refresh on A, revoke on B', async () => {
      const [urlA, urlB] = urls();
      const { clientId } = await register(urlA);
      const browser = new RoamingBrowser([urlA, urlB]);
      const { code, verifier } = await authorizeAcross(browser, clientId, {
        start: 0,
        signIn: 1,
        consentPage: 0,
        allow: 1,
      });

      const first = await redeem(urlB, clientId, code, verifier);
      expect(first.status).toBe(200);
      const refreshToken = String(first.body.refresh_token);
      const userinfoOnA = await getJson(`${urlA}/oauth/userinfo`, {
        authorization: `Bearer ${first.body.access_token}`,
      });
      expect(userinfoOnA.status).toBe(200);
      expect(userinfoOnA.body.sub).toEqual(expect.any(String));

      const second = await refresh(urlA, clientId, refreshToken);
      expect(second.status).toBe(200);
      const rotated = String(second.body.refresh_token);
      expect(rotated).not.toBe(refreshToken);

      const revoked = await postForm(`${urlB}/oauth/revoke`, { token: rotated, client_id: clientId });
      expect(revoked.status).toBe(200);
      const afterRevoke = await refresh(urlA, clientId, rotated);
      expect(afterRevoke.status).toBe(400);
      expect(afterRevoke.body.error).toBe('invalid_grant');
    });

    it('the account page on one instance shows the session started on the other, and signing out there ends its refresh tokens everywhere', async () => {
      const [urlA, urlB] = urls();
      const { clientId } = await register(urlB);
      const browser = new RoamingBrowser([urlA, urlB]);
      const { code, verifier } = await authorizeAcross(browser, clientId, {
        start: 1,
        signIn: 1,
        consentPage: 0,
        allow: 0,
      });
      const tokens = await redeem(urlA, clientId, code, verifier);
      expect(tokens.status).toBe(200);

      const account = await browser.get(0, '/account');
      expect(buttonsOf(account)).toContain('Sign out');
      const signedOut = await browser.submit(1, account, 'Sign out');
      expect(signedOut.status).toBeLessThan(400);

      const afterSignOut = await refresh(urlA, clientId, String(tokens.body.refresh_token));
      expect(afterSignOut.body.error).toBe('invalid_grant');
      expect((await browser.get(0, '/account')).html).not.toContain('Sign out');
    });

    it('50 concurrent refreshes of one token across both instances: exactly one succeeds, the rest are invalid_grant, and the reuse ends the family', async () => {
      const [urlA, urlB] = urls();
      const { clientId } = await register(urlA);
      const browser = new RoamingBrowser([urlA, urlB]);
      const { code, verifier } = await authorizeAcross(browser, clientId, {
        start: 0,
        signIn: 0,
        consentPage: 0,
        allow: 0,
      });
      const tokens = await redeem(urlB, clientId, code, verifier);
      const token = String(tokens.body.refresh_token);

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => refresh(i % 2 === 0 ? urlA : urlB, clientId, token)),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      const losers = results.filter((r) => r.status !== 200);
      expect(losers.map((r) => [r.status, r.body.error])).toEqual(Array(49).fill([400, 'invalid_grant']));

      // The 49 replays of a rotated token are reuse (RFC 9700 §4.14.2): the whole family is revoked,
      // so the one successor minted is dead too, and so is the access token issued with it.
      const successor = String(winners[0]?.body.refresh_token);
      const next = await refresh(urlB, clientId, successor);
      expect(next.status).toBe(400);
      expect(next.body.error).toBe('invalid_grant');
      const userinfo = await getJson(`${urlA}/oauth/userinfo`, {
        authorization: `Bearer ${winners[0]?.body.access_token}`,
      });
      expect(userinfo.status).toBe(401);
    });

    it('one code redeemed on both instances at once is redeemed once, and the replay revokes what it issued', async () => {
      const [urlA, urlB] = urls();
      const { clientId } = await register(urlB);
      const browser = new RoamingBrowser([urlA, urlB]);
      const { code, verifier } = await authorizeAcross(browser, clientId, {
        start: 1,
        signIn: 0,
        consentPage: 1,
        allow: 0,
      });

      const results = await Promise.all([
        redeem(urlA, clientId, code, verifier),
        redeem(urlB, clientId, code, verifier),
        redeem(urlA, clientId, code, verifier),
        redeem(urlB, clientId, code, verifier),
      ]);
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(3);
      const afterReplay = await refresh(urlA, clientId, String(winners[0]?.body.refresh_token));
      expect(afterReplay.body.error).toBe('invalid_grant');
    });

    it('sign-in failures counted on either instance lock the account on both, and an unknown email is treated the same', async () => {
      const [urlA, urlB] = urls();
      const browser = new RoamingBrowser([urlA, urlB]);
      for (const email of [CUSTOMER.email, 'nobody@example.com']) {
        for (let attempt = 0; attempt < 5; attempt++) {
          const form = await browser.get(attempt % 2, '/account');
          const failed = await browser.submit(attempt % 2, form, 'Sign in', {
            Email: email,
            Password: 'wrong password',
          });
          expect(failed.status, `attempt ${attempt + 1} for ${email}`).toBe(401);
        }
        // The sixth attempt is refused on either instance before the password is even looked at.
        for (const index of [0, 1]) {
          const form = await browser.get(index, '/account');
          const locked = await browser.submit(index, form, 'Sign in', {
            Email: email,
            Password: email === CUSTOMER.email ? CUSTOMER.password : 'wrong password',
          });
          expect(locked.status).toBe(429);
          const retryAfter = Number(locked.headers.get('retry-after'));
          expect(retryAfter).toBeGreaterThan(0);
          expect(retryAfter).toBeLessThanOrEqual(15 * 60);
          expect(buttonsOf(locked)).not.toContain('Allow');
        }
      }
    });

    it('neither instance wrote a password, secret, code or token to its log', () => {
      const all = [...a.lines, ...b.lines].join('\n');
      expect(all).not.toContain(CUSTOMER.password);
      expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
      for (const line of [...a.lines, ...b.lines].filter((l) => l.startsWith('{'))) {
        expect(() => JSON.parse(line)).not.toThrow();
      }
    });
  },
);
