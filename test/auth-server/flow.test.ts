import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from './helpers/databases.js';
import { FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import { authorize, discover, insecure, postForm, registerClient } from './helpers/oauth-client.js';

describeEachDatabase('the issuer on %s driven by oauth4webapi', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  let issuer: TestIssuer;
  let as: oauth.AuthorizationServer;
  let credentials: { email: string; password: string };

  beforeAll(async () => {
    if (skip) return;
    issuer = await startTestIssuer({ kind });
    as = await discover(issuer.issuer);
    credentials = issuer.customer;
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  it.skipIf(skip)(
    `discovery names the configured issuer and builds every endpoint from it${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`,
    () => {
      expect(as.issuer).toBe(issuer.issuer);
      for (const key of [
        'authorization_endpoint',
        'token_endpoint',
        'jwks_uri',
        'registration_endpoint',
        'userinfo_endpoint',
      ]) {
        expect(String(as[key])).toMatch(new RegExp(`^${issuer.issuer}/`));
      }
    },
  );

  it.skipIf(skip)(
    'a public client completes the PKCE flow and the ID token verifies against the JWKS',
    async () => {
      const registered = await registerClient(as, 'none');
      const { tokens, nonce, callback } = await authorize(as, registered, { credentials });
      expect(callback.searchParams.get('iss')).toBe(issuer.issuer);
      const jwks = createRemoteJWKSet(new URL(as.jwks_uri ?? ''));
      const idToken = await jwtVerify(tokens.id_token ?? '', jwks, {
        issuer: issuer.issuer,
        audience: registered.client.client_id,
        algorithms: ['RS256'],
      });
      expect(idToken.payload.nonce).toBe(nonce);
      expect(idToken.payload.sub).toBe(issuer.customer.id);
      expect(typeof idToken.payload.auth_time).toBe('number');
      expect(typeof idToken.payload.at_hash).toBe('string');
      expect(idToken.protectedHeader.kid).toBeTruthy();

      const access = await jwtVerify(tokens.access_token, jwks, {
        issuer: issuer.issuer,
        audience: issuer.issuer,
        typ: 'at+jwt',
      });
      expect(access.protectedHeader.alg).toBe('ES256');
      expect(access.payload.client_id).toBe(registered.client.client_id);
      expect(access.payload.scope).toBe('email offline_access openid profile');
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.refresh_token).toBeTruthy();

      const userinfo = await oauth.processUserInfoResponse(
        as,
        registered.client,
        issuer.customer.id,
        await oauth.userInfoRequest(as, registered.client, tokens.access_token, insecure),
      );
      expect(userinfo).toMatchObject({
        sub: issuer.customer.id,
        email: issuer.customer.email,
        name: issuer.customer.name,
      });
    },
  );

  it.skipIf(skip)('each advertised token endpoint auth method works', async () => {
    for (const method of as.token_endpoint_auth_methods_supported ?? []) {
      const registered = await registerClient(as, method as 'none');
      const { tokens } = await authorize(as, registered, { credentials, scope: 'openid' });
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.refresh_token).toBeUndefined();
    }
  });

  it.skipIf(skip)(
    'refresh rotates the token, and reuse of a rotated one revokes the whole family',
    async () => {
      const registered = await registerClient(as, 'client_secret_basic');
      const { tokens } = await authorize(as, registered, { credentials });
      const first = tokens.refresh_token ?? '';
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        registered.client,
        await oauth.refreshTokenGrantRequest(as, registered.client, registered.auth, first, insecure),
      );
      const second = refreshed.refresh_token ?? '';
      expect(second).toBeTruthy();
      // OpenID Connect Core §12.2: the code exchange gave an ID token; a refresh need not.
      expect(tokens.id_token).toBeTruthy();
      expect(refreshed.id_token).toBeUndefined();
      expect(second).not.toBe(first);

      const reuse = await postForm(as.token_endpoint ?? '', {
        grant_type: 'refresh_token',
        refresh_token: first,
        client_id: registered.client.client_id,
        client_secret: registered.secret ?? '',
      });
      expect(reuse.status).toBe(401); // basic client may not switch to post
      const basic = `Basic ${Buffer.from(`${encodeURIComponent(registered.client.client_id)}:${encodeURIComponent(registered.secret ?? '')}`).toString('base64')}`;
      const reused = await postForm(
        as.token_endpoint ?? '',
        { grant_type: 'refresh_token', refresh_token: first },
        { authorization: basic },
      );
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      const afterFamilyRevoked = await postForm(
        as.token_endpoint ?? '',
        { grant_type: 'refresh_token', refresh_token: second },
        { authorization: basic },
      );
      expect(afterFamilyRevoked.body.error).toBe('invalid_grant');
      const userinfo = await fetch(as.userinfo_endpoint ?? '', {
        headers: { authorization: `Bearer ${refreshed.access_token}` },
      });
      expect(userinfo.status).toBe(401);
    },
  );

  it.skipIf(skip)('a refresh may narrow the scope but never widen it', async () => {
    const registered = await registerClient(as, 'none');
    const { tokens } = await authorize(as, registered, { credentials, scope: 'openid offline_access' });
    const wider = await postForm(as.token_endpoint ?? '', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: registered.client.client_id,
      scope: 'openid email offline_access',
    });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    // The refused request did not spend the token: it still refreshes, to a narrower scope.
    const narrower = await postForm(as.token_endpoint ?? '', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: registered.client.client_id,
      scope: 'offline_access',
    });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('offline_access');
  });

  it.skipIf(skip)('concurrent refreshes of one token mint exactly one successor', async () => {
    const registered = await registerClient(as, 'none');
    const { tokens } = await authorize(as, registered, { credentials, scope: 'openid offline_access' });
    const form = {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: registered.client.client_id,
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => postForm(as.token_endpoint ?? '', form)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error === 'invalid_grant')).toHaveLength(7);
  });

  it.skipIf(skip)('a replayed code is refused and revokes what the first redemption issued', async () => {
    const registered = await registerClient(as, 'none');
    const { url, verifier, state } = await (await import('./helpers/oauth-client.js')).buildAuthorizationUrl(
      as,
      registered,
      'openid offline_access',
    );
    const { authorizeInBrowser } = await import('./helpers/form-agent.js');
    const callback = await authorizeInBrowser(
      new FormAgent(new URL(issuer.issuer).origin),
      url.href,
      credentials,
    );
    const params = oauth.validateAuthResponse(as, registered.client, callback, state);
    const form = {
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: registered.redirectUri,
      code_verifier: verifier,
      client_id: registered.client.client_id,
    };
    const first = await postForm(as.token_endpoint ?? '', form);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const replay = await postForm(as.token_endpoint ?? '', form);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const refresh = await postForm(as.token_endpoint ?? '', {
      grant_type: 'refresh_token',
      refresh_token: String(first.body.refresh_token),
      client_id: registered.client.client_id,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    const userinfo = await fetch(as.userinfo_endpoint ?? '', {
      headers: { authorization: `Bearer ${String(first.body.access_token)}` },
    });
    expect(userinfo.status).toBe(401);
  });

  it.skipIf(skip)('revoking a refresh token ends its family; unknown tokens still get 200', async () => {
    const registered = await registerClient(as, 'client_secret_post');
    const { tokens } = await authorize(as, registered, { credentials });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        as,
        registered.client,
        registered.auth,
        tokens.refresh_token ?? '',
        insecure,
      ),
    );
    const refresh = await postForm(as.token_endpoint ?? '', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
      client_id: registered.client.client_id,
      client_secret: registered.secret ?? '',
    });
    expect(refresh.body.error).toBe('invalid_grant');
    const unknown = await postForm(as.revocation_endpoint ?? '', {
      token: 'no-such-token',
      client_id: registered.client.client_id,
      client_secret: registered.secret ?? '',
    });
    expect(unknown.status).toBe(200);
  });

  it.skipIf(skip)('revoking an access token stops it at userinfo', async () => {
    const registered = await registerClient(as, 'none');
    const { tokens } = await authorize(as, registered, { credentials, scope: 'openid' });
    const revoked = await postForm(as.revocation_endpoint ?? '', {
      token: tokens.access_token,
      token_type_hint: 'access_token',
      client_id: registered.client.client_id,
    });
    expect(revoked.status).toBe(200);
    const userinfo = await fetch(as.userinfo_endpoint ?? '', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);
  });

  it.skipIf(skip)(
    'signing out on the account page invalidates the refresh tokens granted in that session',
    async () => {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const registered = await registerClient(as, 'none');
      const { tokens } = await authorize(as, registered, { credentials, agent });
      const account = await agent.get('/account');
      expect(account.status).toBe(200);
      expect(account.html).toContain('Test Agent');
      const signedOut = await agent.submit(account, 'Sign out');
      expect(signedOut.status).toBe(200);
      const refresh = await postForm(as.token_endpoint ?? '', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: registered.client.client_id,
      });
      expect(refresh.body.error).toBe('invalid_grant');
      const again = await agent.get('/account');
      expect(again.html).toContain('Sign in');
    },
  );

  it.skipIf(skip)('Revoke on the account page ends one app and leaves the others', async () => {
    const agent = new FormAgent(new URL(issuer.issuer).origin);
    const kept = await registerClient(as, 'none', { client_name: 'Kept App' });
    const dropped = await registerClient(as, 'none', { client_name: 'Dropped App' });
    const keptTokens = (await authorize(as, kept, { credentials, agent })).tokens;
    const droppedTokens = (await authorize(as, dropped, { credentials, agent })).tokens;
    const account = await agent.get('/account');
    const forms = (await import('./helpers/form-agent.js')).parseForms(account.html);
    const target = forms.find((f) => f.inputs.some((i) => i.value === dropped.client.client_id));
    expect(target).toBeDefined();
    const body = new URLSearchParams(target?.inputs.map((i) => [i.name, i.value]));
    const result = await agent.request('/account/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    expect(result.status).toBe(303);
    const refresh = (tokens: oauth.TokenEndpointResponse, clientId: string) =>
      postForm(as.token_endpoint ?? '', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: clientId,
      });
    expect((await refresh(droppedTokens, dropped.client.client_id)).body.error).toBe('invalid_grant');
    expect((await refresh(keptTokens, kept.client.client_id)).status).toBe(200);
    expect((await agent.get('/account')).html).not.toContain('Dropped App');
  });

  it.skipIf(skip)(
    'a confidential client is not asked again for consent it already has; a public one is',
    async () => {
      const agent = new FormAgent(new URL(issuer.issuer).origin);
      const confidential = await registerClient(as, 'client_secret_basic');
      await authorize(as, confidential, { credentials, agent, scope: 'openid' });
      const { url } = await (await import('./helpers/oauth-client.js')).buildAuthorizationUrl(
        as,
        confidential,
        'openid',
      );
      const direct = await agent.get(url.href);
      expect(direct.status).toBe(303);
      expect(direct.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);

      const publicClient = await registerClient(as, 'none');
      await authorize(as, publicClient, { credentials, agent, scope: 'openid' });
      const second = await (await import('./helpers/oauth-client.js')).buildAuthorizationUrl(
        as,
        publicClient,
        'openid',
      );
      const page = await agent.get(second.url.href);
      expect(page.status).toBe(200);
      expect(page.html).toContain('>Allow</button>');
    },
  );

  it.skipIf(skip)('the access token header carries typ at+jwt and the kid of a published key', async () => {
    const registered = await registerClient(as, 'none');
    const { tokens } = await authorize(as, registered, { credentials, scope: 'openid' });
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header.typ).toBe('at+jwt');
    const jwks = (await (await fetch(as.jwks_uri ?? '')).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });
});
