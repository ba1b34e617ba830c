/**
 * The storage suites' set-up: for each test, a fresh database with two store handles on it
 * (the stand-ins for two issuer processes sharing it), migrated at once as two processes
 * starting together would; both closed and the database dropped afterwards. On PostgreSQL
 * without TEST_DATABASE_URL it opens nothing and says to skip.
 */
import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../../../auth-server/store/store.js';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from './databases.js';

export interface StoreHandles {
  store: Store;
  second: Store;
}

/** Call inside `describe`; `handles` is filled in before each test. */
export function useStorePair(kind: 'sqlite' | 'postgres'): { skip: boolean; handles: StoreHandles } {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  let database: TestDatabase | undefined;
  let opened: StoreHandles | undefined;
  const current = (): StoreHandles => {
    if (!opened) throw new Error('the store handles are opened in beforeEach, read them inside a test');
    return opened;
  };
  const handles: StoreHandles = {
    get store() {
      return current().store;
    },
    get second() {
      return current().second;
    },
  };

  beforeEach(async () => {
    if (skip) return;
    database = await createTestDatabase(kind);
    const pair = { store: database.openStore(), second: database.openStore() };
    opened = pair;
    await Promise.all([pair.store.migrate(), pair.second.migrate()]);
  });

  afterEach(async () => {
    if (!database || !opened) return;
    await opened.store.close();
    await opened.second.close();
    await database.drop();
    database = undefined;
    opened = undefined;
  });

  return { skip, handles };
}
