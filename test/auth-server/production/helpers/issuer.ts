/**
 * Starts the issuer in this process on 127.0.0.1 port 0 over a fresh database, with one
 * customer and a logger whose JSON lines are kept (so tests can read them), and tears it
 * all down. Unlike the shared helper it keeps the production defaults (rate limits on)
 * unless the test overrides them.
 */
import { type IssuerConfigInput, resolveConfig } from '../../../../auth-server/config.js';
import { addCustomer } from '../../../../auth-server/customers.js';
import type { Clock } from '../../../../auth-server/key-ring.js';
import { createJsonLogger } from '../../../../auth-server/logger.js';
import { type RunningIssuer, startIssuer } from '../../../../auth-server/server.js';
import type { Store } from '../../../../auth-server/store/store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';

export const CUSTOMER = { email: 'ann@example.com', password: 'correct horse battery', name: 'Ann Example' };

export interface ProductionIssuer {
  url: string;
  issuer: string;
  running: RunningIssuer;
  store: Store;
  database: TestDatabase;
  /** Every log line written so far, raw. */
  logs: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  kind?: 'sqlite' | 'postgres';
  config?: IssuerConfigInput;
  clock?: Clock;
  /** Share another issuer's database instead of creating one. */
  database?: TestDatabase;
}

export async function startProductionIssuer(options: StartOptions = {}): Promise<ProductionIssuer> {
  const owned = options.database === undefined;
  const database = options.database ?? (await createTestDatabase(options.kind ?? 'sqlite'));
  const store = database.openStore();
  await store.migrate();
  const logs: string[] = [];
  const logger = createJsonLogger((line) => logs.push(line), 'debug');
  const config = resolveConfig({ port: 0, db: database.db, ...options.config });
  const running = await startIssuer({
    config,
    logger,
    store,
    ...(options.clock ? { clock: options.clock } : {}),
  }).catch(async (error: unknown) => {
    // A refused start (the tests of refusals) must not leave the store open.
    await store.close();
    if (owned) await database.drop();
    throw error;
  });
  if (owned) await addCustomer(store, CUSTOMER, Math.floor(Date.now() / 1000));
  return {
    url: running.url,
    issuer: running.issuer,
    running,
    store,
    database,
    logs,
    async close() {
      await running.close();
      await store.close();
      if (owned) await database.drop();
    },
  };
}
