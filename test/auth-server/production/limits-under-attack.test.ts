/**
 * Two limits that did not hold in the review (issue 12), attacked over real HTTP on
 * loopback on SQLite and PostgreSQL: 100 concurrent sign-ins from one address with
 * different emails must not get more password checks than the per-address limit, and a
 * client_id that has not authenticated must not buy a fresh rate-limit budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_RULES } from '../../../auth-server/throttle/sign-in.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import { FormAgent, parseForms } from '../helpers/form-agent.js';
import { frozenClock } from './helpers/clock.js';
import { postForm, register } from './helpers/http.js';
import { CUSTOMER, type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';

const ATTEMPTS = 100;

function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` };
}

describeEachDatabase('limits under concurrent attack on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;

  describe('finding 4: the per-address sign-in limit', () => {
    let issuer: ProductionIssuer;
    beforeAll(async () => {
      if (skip) return;
      issuer = await startProductionIssuer({
        kind,
        config: { rateLimit: 0 },
        clock: frozenClock(15 * 60).now,
      });
    });
    afterAll(async () => {
      if (!skip) await issuer.close();
    });

    it.skipIf(skip)(
      title(`${ATTEMPTS} concurrent sign-ins with different emails get at most the limit of password checks`),
      async () => {
        const limit = SIGN_IN_RULES.find((r) => r.scope === 'ip')?.limit ?? 0;
        const agent = new FormAgent(issuer.url);
        const page = await agent.get('/account');
        const csrf = parseForms(page.html)[0]?.inputs.find((i) => i.name === 'csrf')?.value ?? '';
        const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        const statuses = await Promise.all(
          Array.from({ length: ATTEMPTS }, (_, i) =>
            fetch(`${issuer.url}/signin`, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
              body: new URLSearchParams({
                csrf,
                email: `race${i}@example.com`,
                password: 'guess',
              }).toString(),
            }).then(async (r) => {
              await r.arrayBuffer();
              return r.status;
            }),
          ),
        );
        // 401 = the password was checked and was wrong; 429 = refused before any check.
        expect(statuses.filter((s) => s === 401).length).toBe(limit);
        expect(statuses.filter((s) => s === 429).length).toBe(ATTEMPTS - limit);
      },
    );

    it.skipIf(skip)(
      title('a good sign-in from the locked address is refused too, then the count holds'),
      async () => {
        const agent = new FormAgent(issuer.url);
        const done = await agent.submit(await agent.get('/account'), 'Sign in', {
          Email: CUSTOMER.email,
          Password: CUSTOMER.password,
        });
        expect(done.status).toBe(429);
      },
    );
  });

  describe('finding 5: a client budget needs an authenticated client', () => {
    let issuer: ProductionIssuer;
    let clientId: string;
    let secret: string;
    beforeAll(async () => {
      if (skip) return;
      issuer = await startProductionIssuer({ kind, config: { rateLimit: 5 }, clock: frozenClock().now });
      const registered = await register(issuer.url, 'client_secret_basic');
      clientId = registered.clientId;
      secret = registered.secret ?? '';
      // Spend what is left of this address's budget.
      for (let i = 0; i < 10; i++)
        await fetch(`${issuer.url}/.well-known/jwks.json`).then((r) => r.arrayBuffer());
    });
    afterAll(async () => {
      if (!skip) await issuer.close();
    });

    it.skipIf(skip)(
      title('a registered client_id with a wrong secret counts against the address'),
      async () => {
        const statuses: number[] = [];
        for (const path of ['/.well-known/jwks.json', '/oauth/userinfo', '/account']) {
          const response = await fetch(`${issuer.url}${path}`, { headers: basic(clientId, 'junk') });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        const token = await postForm(
          `${issuer.url}/oauth/token`,
          { grant_type: 'refresh_token', refresh_token: 'x' },
          basic(clientId, 'junk'),
        );
        statuses.push(token.status);
        const form = await postForm(`${issuer.url}/oauth/revoke`, {
          token: 'x',
          client_id: clientId,
          client_secret: 'junk',
        });
        statuses.push(form.status);
        expect(statuses).toEqual([429, 429, 429, 429, 429]);
      },
    );

    it.skipIf(skip)(
      title('a browser page counts against the address even with the right secret'),
      async () => {
        const response = await fetch(`${issuer.url}/account`, { headers: basic(clientId, secret) });
        await response.arrayBuffer();
        expect(response.status).toBe(429);
      },
    );

    it.skipIf(skip)(
      title('the account pages of issue 13 count against the address even with the right secret'),
      async () => {
        const statuses: Record<string, number> = {};
        for (const path of ['/password/forgot', '/password/set?token=x', '/signup']) {
          const response = await fetch(`${issuer.url}${path}`, { headers: basic(clientId, secret) });
          await response.arrayBuffer();
          statuses[`GET ${path}`] = response.status;
        }
        for (const path of [
          '/password/forgot',
          '/password/set',
          '/signup',
          '/account/password',
          '/account/delete',
        ]) {
          // Both ways a client may authenticate (RFC 6749 §2.3.1): Basic, and the form.
          const inForm = await postForm(`${issuer.url}${path}`, {
            client_id: clientId,
            client_secret: secret,
          });
          const inBasic = await postForm(
            `${issuer.url}${path}`,
            { email: 'a@b.test' },
            basic(clientId, secret),
          );
          statuses[`POST ${path}`] = Math.min(inForm.status, inBasic.status);
        }
        expect(Object.entries(statuses).filter(([, status]) => status !== 429)).toEqual([]);
      },
    );

    it.skipIf(skip)(title('the client that authenticates keeps its own budget'), async () => {
      const token = await postForm(
        `${issuer.url}/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: 'not-a-real-token' },
        basic(clientId, secret),
      );
      expect(token.status).toBe(400);
      expect(token.body.error).toBe('invalid_grant');
    });
  });
});
