import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../auth-server/store/store.js';
import {
  createTestDatabase,
  DATABASE_KINDS,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
  type TestDatabase,
} from '../helpers/databases.js';

const NOW = 1_800_000_000;

function client(clientId: string, createdAt: number) {
  return {
    clientId,
    secretHash: null,
    tokenEndpointAuthMethod: 'none',
    redirectUris: ['https://app.example/cb'],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code'],
    scope: null,
    clientName: 'App',
    metadata: {},
    createdAt,
  };
}

describe.each(DATABASE_KINDS)('the counters on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let database: TestDatabase;
  let store: Store;
  let second: Store;

  beforeEach(async () => {
    if (skip) return;
    database = await createTestDatabase(kind);
    store = database.openStore();
    second = database.openStore();
    await store.migrate();
    await second.migrate();
  });

  afterEach(async () => {
    if (skip) return;
    await store.close();
    await second.close();
    await database.drop();
  });

  it.skipIf(skip)(title('concurrent hits from two handles never lose an increment'), async () => {
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? store : second).counters.hit('k', NOW, NOW + 60)),
    );
    expect([...hits].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await second.counters.peek('k', NOW)).toBe(40);
  });

  it.skipIf(skip)(
    title('windows and keys are counted apart, and clear forgets every window of a key'),
    async () => {
      await store.counters.hit('a', NOW, NOW + 60);
      await store.counters.hit('a', NOW + 60, NOW + 120);
      await store.counters.hit('b', NOW, NOW + 60);
      expect(await store.counters.peek('a', NOW)).toBe(1);
      expect(await store.counters.peek('a', NOW + 60)).toBe(1);
      await store.counters.clear('a');
      expect(await store.counters.peek('a', NOW)).toBe(0);
      expect(await store.counters.peek('a', NOW + 60)).toBe(0);
      expect(await store.counters.peek('b', NOW)).toBe(1);
    },
  );

  it.skipIf(skip)(title('expired windows are deleted and live ones kept'), async () => {
    await store.counters.hit('old', NOW - 120, NOW - 60);
    await store.counters.hit('live', NOW, NOW + 60);
    expect(await store.counters.deleteExpired(NOW)).toBe(1);
    expect(await store.counters.peek('live', NOW)).toBe(1);
  });

  it.skipIf(skip)(
    title('only clients that never obtained a token and are old enough are reaped'),
    async () => {
      await store.createClient(client('never-used-old', NOW - 40 * 86400));
      await store.createClient(client('used-old', NOW - 40 * 86400));
      await store.createClient(client('never-used-new', NOW - 86400));
      await store.saveConsent({
        customerId: 'c1',
        clientId: 'never-used-old',
        scope: 'openid',
        createdAt: NOW - 40 * 86400,
      });
      await store.counters.markClientUsed('used-old', NOW - 39 * 86400);
      expect(await store.counters.deleteUnusedClients(NOW - 30 * 86400)).toBe(1);
      expect(await store.findClient('never-used-old')).toBeUndefined();
      expect(await store.findConsent('c1', 'never-used-old')).toBeUndefined();
      expect(await store.findClient('used-old')).toBeDefined();
      expect(await store.findClient('never-used-new')).toBeDefined();
    },
  );
});
