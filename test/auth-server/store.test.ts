import { expect, it } from 'vitest';
import { ensureSigningKeys } from '../../auth-server/keys.js';
import type { CodeRow, GrantRow, RefreshTokenRow } from '../../auth-server/store/rows.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON } from './helpers/databases.js';
import { useStorePair } from './helpers/store-pair.js';

const NOW = 1_800_000_000;

function grant(id: string, sessionIdHash: string, overrides: Partial<GrantRow> = {}): GrantRow {
  return {
    id,
    clientId: 'client-a',
    customerId: 'customer-1',
    sessionIdHash,
    scope: 'openid offline_access',
    resource: null,
    authTime: NOW,
    createdAt: NOW,
    expiresAt: NOW + 3600,
    revokedAt: null,
    ...overrides,
  };
}

function refreshToken(tokenHash: string, overrides: Partial<RefreshTokenRow> = {}): RefreshTokenRow {
  return {
    tokenHash,
    grantId: 'g1',
    clientId: 'client-a',
    createdAt: NOW,
    expiresAt: NOW + 100,
    consumedAt: null,
    ...overrides,
  };
}

function code(codeHash: string, overrides: Partial<CodeRow> = {}): CodeRow {
  return {
    codeHash,
    grantId: 'g1',
    clientId: 'client-a',
    redirectUri: 'https://app.example/cb',
    codeChallenge: 'x',
    nonce: null,
    createdAt: NOW,
    expiresAt: NOW + 60,
    consumedAt: null,
    ...overrides,
  };
}

describeEachDatabase('the %s store', (kind) => {
  const { skip, handles } = useStorePair(kind);

  it.skipIf(skip)(`migrating again changes nothing ${skip ? POSTGRES_SKIP_REASON : ''}`, async () => {
    await handles.store.migrate();
    await handles.store.ping();
    expect(await handles.store.listKeys()).toEqual([]);
  });

  it.skipIf(skip)('when an email is taken then a second customer with it is refused', async () => {
    const row = { id: 'c1', email: 'a@example.com', name: 'A', passwordHash: 'h', createdAt: NOW };
    expect(await handles.store.createCustomer(row)).toBe(true);
    expect(await handles.store.createCustomer({ ...row, id: 'c2' })).toBe(false);
    expect((await handles.second.findCustomerByEmail('a@example.com'))?.id).toBe('c1');
  });

  it.skipIf(skip)('a client round-trips its lists and metadata', async () => {
    await handles.store.createClient({
      clientId: 'client-a',
      secretHash: null,
      tokenEndpointAuthMethod: 'none',
      redirectUris: ['https://app.example/cb', 'http://127.0.0.1/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      scope: null,
      clientName: 'App',
      metadata: { client_name: 'App', contacts: ['x@example.com'] },
      createdAt: NOW,
    });
    const found = await handles.second.findClient('client-a');
    expect(found?.redirectUris).toEqual(['https://app.example/cb', 'http://127.0.0.1/cb']);
    expect(found?.metadata).toEqual({ client_name: 'App', contacts: ['x@example.com'] });
    expect(await handles.store.findClients(['client-a', 'nope'])).toHaveLength(1);
  });

  it.skipIf(skip)('a code is redeemed once; a second redemption reports reuse', async () => {
    await handles.store.createCode(code('c1'));
    expect((await handles.store.redeemCode('c1', NOW)).outcome).toBe('redeemed');
    expect((await handles.store.redeemCode('c1', NOW)).outcome).toBe('already-used');
    expect((await handles.store.redeemCode('missing', NOW)).outcome).toBe('unknown');
  });

  it.skipIf(skip)('when two handles redeem one code at once then exactly one wins', async () => {
    await handles.store.createCode(code('race'));
    const attempts = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? handles.store : handles.second).redeemCode('race', NOW),
    );
    const outcomes = (await Promise.all(attempts)).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'redeemed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already-used')).toHaveLength(9);
  });

  it.skipIf(skip)(
    'when a refresh token is rotated concurrently then exactly one successor is stored',
    async () => {
      await handles.store.createRefreshToken(refreshToken('r1'));
      const attempts = Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? handles.store : handles.second).rotateRefreshToken('r1', NOW, refreshToken(`next-${i}`)),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes.indexOf(true);
      expect(await handles.store.findRefreshToken(`next-${winner}`)).toBeDefined();
      const losers = outcomes.map((_, i) => i).filter((i) => i !== winner);
      for (const i of losers) expect(await handles.store.findRefreshToken(`next-${i}`)).toBeUndefined();
      expect((await handles.store.findRefreshToken('r1'))?.consumedAt).toBe(NOW);
    },
  );

  it.skipIf(skip)('rotating a spent or unknown refresh token stores nothing', async () => {
    await handles.store.createRefreshToken(refreshToken('spent', { consumedAt: NOW - 1 }));
    expect(await handles.store.rotateRefreshToken('spent', NOW, refreshToken('after-spent'))).toBe(false);
    expect(await handles.store.rotateRefreshToken('missing', NOW, refreshToken('after-missing'))).toBe(false);
    expect(await handles.store.findRefreshToken('after-spent')).toBeUndefined();
    expect(await handles.store.findRefreshToken('after-missing')).toBeUndefined();
    await handles.store.createRefreshToken(refreshToken('last'));
    expect(await handles.store.rotateRefreshToken('last', NOW, undefined)).toBe(true);
    expect(await handles.store.rotateRefreshToken('last', NOW, undefined)).toBe(false);
  });

  it.skipIf(skip)(
    'a refresh token is read together with its grant, or without one once it is gone',
    async () => {
      await handles.store.createGrant(grant('g1', 's1', { revokedAt: NOW - 5 }));
      await handles.store.createRefreshToken(refreshToken('with-grant'));
      await handles.store.createRefreshToken(refreshToken('orphan', { grantId: 'gone' }));
      const found = await handles.store.findRefreshTokenWithGrant('with-grant');
      expect(found?.token).toEqual(refreshToken('with-grant'));
      expect(found?.grant).toEqual(grant('g1', 's1', { revokedAt: NOW - 5 }));
      const orphan = await handles.store.findRefreshTokenWithGrant('orphan');
      expect(orphan?.token.grantId).toBe('gone');
      expect(orphan?.grant).toBeUndefined();
      expect(await handles.store.findRefreshTokenWithGrant('missing')).toBeUndefined();
    },
  );

  it.skipIf(skip)('the bearer context holds the grant, the jti revocation and the customer', async () => {
    await handles.store.createCustomer({
      id: 'customer-1',
      email: 'ada@example.com',
      name: 'Ada',
      passwordHash: 'x',
      createdAt: NOW,
    });
    await handles.store.createGrant(grant('g1', 's1'));
    await handles.store.createGrant(grant('g2', 's1', { customerId: 'deleted' }));
    await handles.store.revokeAccessToken('jti-revoked', NOW + 60);
    expect(await handles.store.findBearerContext('g1', 'jti-live')).toEqual({
      grant: { customerId: 'customer-1', expiresAt: NOW + 3600, revokedAt: null },
      accessTokenRevoked: false,
      customer: { id: 'customer-1', email: 'ada@example.com', name: 'Ada', emailVerified: false },
    });
    expect((await handles.store.findBearerContext('g1', 'jti-revoked'))?.accessTokenRevoked).toBe(true);
    expect((await handles.store.findBearerContext('g2', 'jti-live'))?.customer).toBeUndefined();
    expect(await handles.store.findBearerContext('missing', 'jti-live')).toBeUndefined();
  });

  it.skipIf(skip)('two processes generating first keys at once agree on one key per algorithm', async () => {
    await Promise.all([ensureSigningKeys(handles.store), ensureSigningKeys(handles.second)]);
    const keys = await handles.store.listKeys();
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(keys.every((k) => !k.publicJwk.includes('"d"'))).toBe(true);
  });

  it.skipIf(skip)('ending a session revokes the grants made in it and no others', async () => {
    await handles.store.createSession({
      idHash: 's1',
      customerId: 'customer-1',
      authTime: NOW,
      createdAt: NOW,
      expiresAt: NOW + 99,
      endedAt: null,
    });
    await handles.store.createGrant(grant('g1', 's1'));
    await handles.store.createGrant(grant('g2', 's2'));
    await handles.store.endSession('s1', NOW + 1);
    expect((await handles.store.findSession('s1'))?.endedAt).toBe(NOW + 1);
    expect((await handles.store.findGrant('g1'))?.revokedAt).toBe(NOW + 1);
    expect((await handles.store.findGrant('g2'))?.revokedAt).toBeNull();
  });

  it.skipIf(skip)('revoking a client ends its grants and forgets the consent', async () => {
    await handles.store.createGrant(grant('g1', 's1'));
    await handles.store.createGrant(grant('g3', 's1', { clientId: 'client-b' }));
    await handles.store.saveConsent({
      customerId: 'customer-1',
      clientId: 'client-a',
      scope: 'openid',
      createdAt: NOW,
    });
    await handles.store.saveConsent({
      customerId: 'customer-1',
      clientId: 'client-a',
      scope: 'openid email',
      createdAt: NOW,
    });
    expect((await handles.store.findConsent('customer-1', 'client-a'))?.scope).toBe('openid email');
    await handles.store.revokeClientAccess('customer-1', 'client-a', NOW);
    expect(await handles.store.findConsent('customer-1', 'client-a')).toBeUndefined();
    expect((await handles.store.listActiveGrants('customer-1', NOW)).map((g) => g.id)).toEqual(['g3']);
  });

  it.skipIf(skip)('clean-up removes what expired and keeps what is live', async () => {
    await handles.store.createGrant(grant('old', 's1', { expiresAt: NOW - 10 }));
    await handles.store.createGrant(grant('live', 's1'));
    await handles.store.createRefreshToken({
      tokenHash: 'old',
      grantId: 'live',
      clientId: 'a',
      createdAt: NOW,
      expiresAt: NOW - 1,
      consumedAt: null,
    });
    await handles.store.createRefreshToken({
      tokenHash: 'live',
      grantId: 'live',
      clientId: 'a',
      createdAt: NOW,
      expiresAt: NOW + 9,
      consumedAt: null,
    });
    await handles.store.revokeAccessToken('jti-old', NOW - 1);
    await handles.store.revokeAccessToken('jti-live', NOW + 60);
    const counts = await handles.store.deleteExpired(NOW);
    expect(counts.grants).toBe(1);
    expect(counts.refreshTokens).toBe(1);
    expect(counts.revokedAccessTokens).toBe(1);
    expect(await handles.store.findGrant('live')).toBeDefined();
    expect(await handles.store.findRefreshToken('live')).toBeDefined();
    expect(await handles.store.isAccessTokenRevoked('jti-live')).toBe(true);
    expect(await handles.store.isAccessTokenRevoked('jti-old')).toBe(false);
  });
});
