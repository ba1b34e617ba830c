import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureSigningKeys } from '../../auth-server/keys.js';
import type { CodeRow, GrantRow, RefreshTokenRow, Store } from '../../auth-server/store/store.js';
import {
  createTestDatabase,
  DATABASE_KINDS,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
  type TestDatabase,
} from './helpers/databases.js';

const NOW = 1_800_000_000;

function grant(id: string, sessionIdHash: string, overrides: Partial<GrantRow> = {}): GrantRow {
  return {
    id,
    clientId: 'client-a',
    customerId: 'customer-1',
    sessionIdHash,
    scope: 'openid offline_access',
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

describe.each(DATABASE_KINDS)('the %s store', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  let database: TestDatabase;
  let store: Store;
  let second: Store;

  beforeEach(async () => {
    if (skip) return;
    database = await createTestDatabase(kind);
    store = database.openStore();
    second = database.openStore();
    // Two handles migrating at once stand in for two processes starting together.
    await Promise.all([store.migrate(), second.migrate()]);
  });

  afterEach(async () => {
    if (skip) return;
    await store.close();
    await second.close();
    await database.drop();
  });

  it.skipIf(skip)(`migrating again changes nothing ${skip ? POSTGRES_SKIP_REASON : ''}`, async () => {
    await store.migrate();
    await store.ping();
    expect(await store.listKeys()).toEqual([]);
  });

  it.skipIf(skip)('when an email is taken then a second customer with it is refused', async () => {
    const row = { id: 'c1', email: 'a@example.com', name: 'A', passwordHash: 'h', createdAt: NOW };
    expect(await store.createCustomer(row)).toBe(true);
    expect(await store.createCustomer({ ...row, id: 'c2' })).toBe(false);
    expect((await second.findCustomerByEmail('a@example.com'))?.id).toBe('c1');
  });

  it.skipIf(skip)('a client round-trips its lists and metadata', async () => {
    await store.createClient({
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
    const found = await second.findClient('client-a');
    expect(found?.redirectUris).toEqual(['https://app.example/cb', 'http://127.0.0.1/cb']);
    expect(found?.metadata).toEqual({ client_name: 'App', contacts: ['x@example.com'] });
    expect(await store.findClients(['client-a', 'nope'])).toHaveLength(1);
  });

  it.skipIf(skip)('a code is redeemed once; a second redemption reports reuse', async () => {
    await store.createCode(code('c1'));
    expect((await store.redeemCode('c1', NOW)).outcome).toBe('redeemed');
    expect((await store.redeemCode('c1', NOW)).outcome).toBe('already-used');
    expect((await store.redeemCode('missing', NOW)).outcome).toBe('unknown');
  });

  it.skipIf(skip)('when two handles redeem one code at once then exactly one wins', async () => {
    await store.createCode(code('race'));
    const attempts = Array.from({ length: 10 }, (_, i) => (i % 2 ? store : second).redeemCode('race', NOW));
    const outcomes = (await Promise.all(attempts)).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'redeemed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already-used')).toHaveLength(9);
  });

  it.skipIf(skip)(
    'when a refresh token is rotated concurrently then exactly one successor is stored',
    async () => {
      await store.createRefreshToken(refreshToken('r1'));
      const attempts = Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? store : second).rotateRefreshToken('r1', NOW, refreshToken(`next-${i}`)),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes.indexOf(true);
      expect(await store.findRefreshToken(`next-${winner}`)).toBeDefined();
      const losers = outcomes.map((_, i) => i).filter((i) => i !== winner);
      for (const i of losers) expect(await store.findRefreshToken(`next-${i}`)).toBeUndefined();
      expect((await store.findRefreshToken('r1'))?.consumedAt).toBe(NOW);
    },
  );

  it.skipIf(skip)('rotating a spent or unknown refresh token stores nothing', async () => {
    await store.createRefreshToken(refreshToken('spent', { consumedAt: NOW - 1 }));
    expect(await store.rotateRefreshToken('spent', NOW, refreshToken('after-spent'))).toBe(false);
    expect(await store.rotateRefreshToken('missing', NOW, refreshToken('after-missing'))).toBe(false);
    expect(await store.findRefreshToken('after-spent')).toBeUndefined();
    expect(await store.findRefreshToken('after-missing')).toBeUndefined();
    await store.createRefreshToken(refreshToken('last'));
    expect(await store.rotateRefreshToken('last', NOW, undefined)).toBe(true);
    expect(await store.rotateRefreshToken('last', NOW, undefined)).toBe(false);
  });

  it.skipIf(skip)(
    'a refresh token is read together with its grant, or without one once it is gone',
    async () => {
      await store.createGrant(grant('g1', 's1', { revokedAt: NOW - 5 }));
      await store.createRefreshToken(refreshToken('with-grant'));
      await store.createRefreshToken(refreshToken('orphan', { grantId: 'gone' }));
      const found = await store.findRefreshTokenWithGrant('with-grant');
      expect(found?.token).toEqual(refreshToken('with-grant'));
      expect(found?.grant).toEqual(grant('g1', 's1', { revokedAt: NOW - 5 }));
      const orphan = await store.findRefreshTokenWithGrant('orphan');
      expect(orphan?.token.grantId).toBe('gone');
      expect(orphan?.grant).toBeUndefined();
      expect(await store.findRefreshTokenWithGrant('missing')).toBeUndefined();
    },
  );

  it.skipIf(skip)('the bearer context holds the grant, the jti revocation and the customer', async () => {
    await store.createCustomer({
      id: 'customer-1',
      email: 'ada@example.com',
      name: 'Ada',
      passwordHash: 'x',
      createdAt: NOW,
    });
    await store.createGrant(grant('g1', 's1'));
    await store.createGrant(grant('g2', 's1', { customerId: 'deleted' }));
    await store.revokeAccessToken('jti-revoked', NOW + 60);
    expect(await store.findBearerContext('g1', 'jti-live')).toEqual({
      grant: { customerId: 'customer-1', expiresAt: NOW + 3600, revokedAt: null },
      accessTokenRevoked: false,
      customer: { id: 'customer-1', email: 'ada@example.com', name: 'Ada' },
    });
    expect((await store.findBearerContext('g1', 'jti-revoked'))?.accessTokenRevoked).toBe(true);
    expect((await store.findBearerContext('g2', 'jti-live'))?.customer).toBeUndefined();
    expect(await store.findBearerContext('missing', 'jti-live')).toBeUndefined();
  });

  it.skipIf(skip)('two processes generating first keys at once agree on one key per algorithm', async () => {
    await Promise.all([ensureSigningKeys(store), ensureSigningKeys(second)]);
    const keys = await store.listKeys();
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(keys.every((k) => !k.publicJwk.includes('"d"'))).toBe(true);
  });

  it.skipIf(skip)('ending a session revokes the grants made in it and no others', async () => {
    await store.createSession({
      idHash: 's1',
      customerId: 'customer-1',
      authTime: NOW,
      createdAt: NOW,
      expiresAt: NOW + 99,
      endedAt: null,
    });
    await store.createGrant(grant('g1', 's1'));
    await store.createGrant(grant('g2', 's2'));
    await store.endSession('s1', NOW + 1);
    expect((await store.findSession('s1'))?.endedAt).toBe(NOW + 1);
    expect((await store.findGrant('g1'))?.revokedAt).toBe(NOW + 1);
    expect((await store.findGrant('g2'))?.revokedAt).toBeNull();
  });

  it.skipIf(skip)('revoking a client ends its grants and forgets the consent', async () => {
    await store.createGrant(grant('g1', 's1'));
    await store.createGrant(grant('g3', 's1', { clientId: 'client-b' }));
    await store.saveConsent({
      customerId: 'customer-1',
      clientId: 'client-a',
      scope: 'openid',
      createdAt: NOW,
    });
    await store.saveConsent({
      customerId: 'customer-1',
      clientId: 'client-a',
      scope: 'openid email',
      createdAt: NOW,
    });
    expect((await store.findConsent('customer-1', 'client-a'))?.scope).toBe('openid email');
    await store.revokeClientAccess('customer-1', 'client-a', NOW);
    expect(await store.findConsent('customer-1', 'client-a')).toBeUndefined();
    expect((await store.listActiveGrants('customer-1', NOW)).map((g) => g.id)).toEqual(['g3']);
  });

  it.skipIf(skip)('clean-up removes what expired and keeps what is live', async () => {
    await store.createGrant(grant('old', 's1', { expiresAt: NOW - 10 }));
    await store.createGrant(grant('live', 's1'));
    await store.createRefreshToken({
      tokenHash: 'old',
      grantId: 'live',
      clientId: 'a',
      createdAt: NOW,
      expiresAt: NOW - 1,
      consumedAt: null,
    });
    await store.createRefreshToken({
      tokenHash: 'live',
      grantId: 'live',
      clientId: 'a',
      createdAt: NOW,
      expiresAt: NOW + 9,
      consumedAt: null,
    });
    await store.revokeAccessToken('jti-old', NOW - 1);
    await store.revokeAccessToken('jti-live', NOW + 60);
    const counts = await store.deleteExpired(NOW);
    expect(counts.grants).toBe(1);
    expect(counts.refreshTokens).toBe(1);
    expect(counts.revokedAccessTokens).toBe(1);
    expect(await store.findGrant('live')).toBeDefined();
    expect(await store.findRefreshToken('live')).toBeDefined();
    expect(await store.isAccessTokenRevoked('jti-live')).toBe(true);
    expect(await store.isAccessTokenRevoked('jti-old')).toBe(false);
  });
});
