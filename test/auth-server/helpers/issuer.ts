/**
 * Starts a real issuer on 127.0.0.1 port 0 over a fresh database (SQLite temp file, or a
 * fresh PostgreSQL schema), with one customer, a silent logger and an optional movable
 * clock, and tears it all down again.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IssuerConfigInput, resolveConfig } from '../../../auth-server/config.js';
import { addCustomer } from '../../../auth-server/customers.js';
import type { Clock } from '../../../auth-server/key-ring.js';
import { type Logger, silentLogger } from '../../../auth-server/logger.js';
import { type RunningIssuer, startIssuer } from '../../../auth-server/server.js';
import type { Store } from '../../../auth-server/store/store.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

/** The merchant the test issuers present (no logo, so pages load nothing off loopback). */
export const TEST_CATALOG_CONFIG = fileURLToPath(
  new URL('../../fixtures/issuer/catalog.config.json', import.meta.url),
);

export interface TestIssuer {
  issuer: string;
  running: RunningIssuer;
  store: Store;
  database: TestDatabase;
  customer: { id: string; email: string; password: string; name: string };
  close(): Promise<void>;
}

export interface MovableClock {
  now: Clock;
  advance(seconds: number): void;
}

/** A clock that starts at real time and moves only when told. */
export function createMovableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(seconds) {
      offset += seconds * 1000;
    },
  };
}

export async function startTestIssuer(
  options: { kind?: 'sqlite' | 'postgres'; clock?: Clock; config?: IssuerConfigInput; logger?: Logger } = {},
): Promise<TestIssuer> {
  const database = await createTestDatabase(options.kind ?? 'sqlite');
  const store = database.openStore();
  await store.migrate();
  // Mail the test does not send over SMTP lands here, and goes with the issuer.
  const outboxDir = join(tmpdir(), `agent-auth-outbox-${randomUUID()}`);
  const config = resolveConfig({
    port: 0,
    db: database.db,
    rateLimit: 0,
    catalogConfig: TEST_CATALOG_CONFIG,
    outboxDir,
    ...options.config,
  });
  const running = await startIssuer({
    config,
    logger: options.logger ?? silentLogger,
    store,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const customer = { email: 'ann@example.com', password: 'correct horse battery', name: 'Ann Example' };
  const id = await addCustomer(store, customer, Math.floor(Date.now() / 1000));
  return {
    issuer: running.issuer,
    running,
    store,
    database,
    customer: { ...customer, id },
    async close() {
      await running.close();
      await store.close();
      await database.drop();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}
