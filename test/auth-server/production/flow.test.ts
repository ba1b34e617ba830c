/**
 * The full flow with the production middleware on, on SQLite and on PostgreSQL: an
 * independent client (oauth4webapi) registers, signs a customer in through the HTML forms,
 * redeems, refreshes, calls userinfo, revokes and signs out; every log line of it is read
 * back to prove that no secret reached the log; and a client that never obtained a token
 * is reaped while a used one stays.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reapExpired } from '../../../auth-server/reaper.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import { FormAgent } from '../helpers/form-agent.js';
import { authorize, discover, insecure, registerClient } from '../helpers/oauth-client.js';
import { postForm } from './helpers/http.js';
import { CUSTOMER, type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';
import { readLastUsedAt, waitForValue } from './helpers/peek.js';

const DAY_MS = 24 * 3600 * 1000;

describeEachDatabase('the full flow behind the production middleware on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let issuer: ProductionIssuer;
  let as: oauth.AuthorizationServer;
  const secrets: string[] = [CUSTOMER.password];

  beforeAll(async () => {
    if (skip) return;
    issuer = await startProductionIssuer({ kind, config: { rateLimit: 1000 } });
    as = await discover(issuer.issuer);
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  it.skipIf(skip)(
    title('a confidential client completes code, refresh, userinfo, revoke and sign-out'),
    async () => {
      const registered = await registerClient(as, 'client_secret_basic');
      secrets.push(registered.secret ?? 'missing-secret');
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const { tokens, callback } = await authorize(as, registered, { credentials: CUSTOMER, agent });
      secrets.push(
        callback.searchParams.get('code') ?? '',
        tokens.access_token,
        tokens.refresh_token ?? '',
        tokens.id_token ?? '',
      );
      secrets.push(...agent.cookies.values());

      const userinfo = await oauth.userInfoRequest(as, registered.client, tokens.access_token, insecure);
      expect(userinfo.status).toBe(200);
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        registered.client,
        await oauth.refreshTokenGrantRequest(
          as,
          registered.client,
          registered.auth,
          tokens.refresh_token ?? '',
          insecure,
        ),
      );
      secrets.push(refreshed.access_token, refreshed.refresh_token ?? '');
      const basic = `Basic ${Buffer.from(`${registered.client.client_id}:${registered.secret}`).toString('base64')}`;
      const revoked = await postForm(
        `${issuer.url}/oauth/revoke`,
        { token: refreshed.access_token },
        { authorization: basic },
      );
      expect(revoked.status).toBe(200);
      const afterRevoke = await oauth.userInfoRequest(
        as,
        registered.client,
        refreshed.access_token,
        insecure,
      );
      expect(afterRevoke.status).toBe(401);

      const account = await agent.get('/account');
      const signedOut = await agent.submit(account, 'Sign out');
      expect(signedOut.status).toBeLessThan(400);
      const afterSignOut = await postForm(
        `${issuer.url}/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token ?? '' },
        { authorization: basic },
      );
      expect(afterSignOut.body.error).toBe('invalid_grant');
    },
  );

  it.skipIf(skip)(
    title(
      'a wrong password is logged as a failure without the password, and nothing secret is logged at all',
    ),
    async () => {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const wrong = 'Wrong-Password-Marker-123';
      secrets.push(wrong);
      const page = await agent.get('/account');
      const failed = await agent.submit(page, 'Sign in', { Email: CUSTOMER.email, Password: wrong });
      expect(failed.status).toBe(401);

      const lines = issuer.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.length).toBeGreaterThan(10);
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests.every((l) => typeof l.requestId === 'string' && typeof l.status === 'number')).toBe(
        true,
      );
      const joined = issuer.logs.join('');
      for (const secret of secrets.filter((s) => s.length >= 8)) expect(joined).not.toContain(secret);
      expect(joined).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
    },
  );

  it.skipIf(skip)(
    title(
      'a client that never obtained a token is reaped after 30 days and then told invalid_client; a used one stays',
    ),
    async () => {
      const unused = await registerClient(as, 'none');
      const used = await registerClient(as, 'none');
      await authorize(as, used, { credentials: CUSTOMER, scope: 'openid' });
      await waitForValue(() => readLastUsedAt(issuer.database, used.client.client_id));

      const token = (clientId: string) =>
        postForm(`${issuer.url}/oauth/token`, {
          grant_type: 'authorization_code',
          code: 'not-a-code',
          redirect_uri: unused.redirectUri,
          code_verifier: 'v'.repeat(43),
          client_id: clientId,
        });
      expect((await token(unused.client.client_id)).status).toBe(400);

      const counts = await reapExpired(issuer.store, () => Date.now() + 31 * DAY_MS, 30);
      expect(counts.clients).toBeGreaterThanOrEqual(1);
      const reaped = await token(unused.client.client_id);
      expect(reaped.status).toBe(401);
      expect(reaped.body.error).toBe('invalid_client');
      expect((await token(used.client.client_id)).status).toBe(400);
    },
  );
});
