import { expect, it } from 'vitest';
import { describeEachDatabase, POSTGRES_SKIP_REASON } from '../helpers/databases.js';
import { useStorePair } from '../helpers/store-pair.js';

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

describeEachDatabase('the counters on %s', (kind) => {
  const { skip, handles } = useStorePair(kind);
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;

  it.skipIf(skip)(title('concurrent hits from two handles never lose an increment'), async () => {
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? handles.store : handles.second).counters.hit('k', NOW, NOW + 60),
      ),
    );
    expect([...hits].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await handles.second.counters.peek('k', NOW)).toBe(40);
  });

  it.skipIf(skip)(
    title('windows and keys are counted apart, and clear forgets every window of a key'),
    async () => {
      await handles.store.counters.hit('a', NOW, NOW + 60);
      await handles.store.counters.hit('a', NOW + 60, NOW + 120);
      await handles.store.counters.hit('b', NOW, NOW + 60);
      expect(await handles.store.counters.peek('a', NOW)).toBe(1);
      expect(await handles.store.counters.peek('a', NOW + 60)).toBe(1);
      await handles.store.counters.clear('a');
      expect(await handles.store.counters.peek('a', NOW)).toBe(0);
      expect(await handles.store.counters.peek('a', NOW + 60)).toBe(0);
      expect(await handles.store.counters.peek('b', NOW)).toBe(1);
    },
  );

  it.skipIf(skip)(title('expired windows are deleted and live ones kept'), async () => {
    await handles.store.counters.hit('old', NOW - 120, NOW - 60);
    await handles.store.counters.hit('live', NOW, NOW + 60);
    expect(await handles.store.counters.deleteExpired(NOW)).toBe(1);
    expect(await handles.store.counters.peek('live', NOW)).toBe(1);
  });

  it.skipIf(skip)(
    title('only clients that never obtained a token and are old enough are reaped'),
    async () => {
      await handles.store.createClient(client('never-used-old', NOW - 40 * 86400));
      await handles.store.createClient(client('used-old', NOW - 40 * 86400));
      await handles.store.createClient(client('never-used-new', NOW - 86400));
      await handles.store.saveConsent({
        customerId: 'c1',
        clientId: 'never-used-old',
        scope: 'openid',
        createdAt: NOW - 40 * 86400,
      });
      await handles.store.counters.markClientUsed('used-old', NOW - 39 * 86400);
      expect(await handles.store.counters.deleteUnusedClients(NOW - 30 * 86400)).toBe(1);
      expect(await handles.store.findClient('never-used-old')).toBeUndefined();
      expect(await handles.store.findConsent('c1', 'never-used-old')).toBeUndefined();
      expect(await handles.store.findClient('used-old')).toBeDefined();
      expect(await handles.store.findClient('never-used-new')).toBeDefined();
    },
  );
});
