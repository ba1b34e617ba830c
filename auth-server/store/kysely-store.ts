/**
 * The Store implemented once with Kysely for SQLite and PostgreSQL, composed from its
 * halves: the account queries (customers, clients, keys, sessions, consent;
 * account-queries.ts), the protocol queries (grants, codes, refresh tokens; grant-queries.ts)
 * and the operational counters (counters.ts). This module owns what spans them: migrations,
 * the connection's life and the clean-up of expired rows. Migrations run under Kysely's
 * migration lock (a PostgreSQL advisory lock); on SQLite a second process that loses the
 * race to the write lock simply retries and finds the work done.
 */
import { type Kysely, Migrator, sql } from 'kysely';
import { createAccountQueries } from './account-queries.js';
import { createCounterStore } from './counters.js';
import { createEmailLinkStore } from './email-link-queries.js';
import { createGrantQueries } from './grant-queries.js';
import { issuerMigrations } from './migrations.js';
import type { CleanupCounts } from './rows.js';
import type { IssuerDatabase } from './schema.js';
import { createSignupStore } from './signup-queries.js';
import { createKyselyRunner, type Dialect, type StatementRunner } from './statements.js';
import type { Store } from './store.js';

const MIGRATE_ATTEMPTS = 5;
// Consumed codes are kept a day past expiry so a late replay is still recognised as one.
const CODE_RETENTION = 24 * 3600;
const ENDED_RETENTION = 24 * 3600;

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

async function migrateToLatest(
  db: Kysely<IssuerDatabase>,
  migrationSchema: string | undefined,
): Promise<void> {
  const migrator = new Migrator({
    db: db.withoutPlugins(),
    provider: issuerMigrations,
    ...(migrationSchema ? { migrationTableSchema: migrationSchema } : {}),
  });
  let lastError: unknown;
  for (let attempt = 1; attempt <= MIGRATE_ATTEMPTS; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (error === undefined) return;
    lastError = error;
    await delay(50 * attempt + Math.floor(Math.random() * 50));
  }
  throw new Error('database migration failed', { cause: lastError });
}

async function deleteExpired(db: Kysely<IssuerDatabase>, now: number): Promise<CleanupCounts> {
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  return {
    codes: count(
      await db
        .deleteFrom('codes')
        .where('expiresAt', '<', now - CODE_RETENTION)
        .executeTakeFirst(),
    ),
    refreshTokens: count(
      await db.deleteFrom('refreshTokens').where('expiresAt', '<', now).executeTakeFirst(),
    ),
    sessions: count(
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expiresAt', '<', now), eb('endedAt', '<', now - ENDED_RETENTION)]))
        .executeTakeFirst(),
    ),
    interactions: count(await db.deleteFrom('interactions').where('expiresAt', '<', now).executeTakeFirst()),
    grants: count(
      await db
        .deleteFrom('grants')
        .where((eb) => eb.or([eb('expiresAt', '<', now), eb('revokedAt', '<', now - ENDED_RETENTION)]))
        .executeTakeFirst(),
    ),
    revokedAccessTokens: count(
      await db.deleteFrom('revokedAccessTokens').where('expiresAt', '<', now).executeTakeFirst(),
    ),
    keys: count(await db.deleteFrom('signingKeys').where('retiresAt', '<', now).executeTakeFirst()),
    signups: await createSignupStore(db).deleteExpired(now),
  };
}

/**
 * `migrationSchema` is the PostgreSQL schema of Kysely's migration tables (undefined on
 * SQLite); `runner` executes the hot statements (statements.ts), through `db` by default.
 */
export function createKyselyStore(
  db: Kysely<IssuerDatabase>,
  dialect: Dialect,
  migrationSchema: string | undefined,
  runner: StatementRunner = createKyselyRunner(db),
): Store {
  return {
    dialect,
    counters: createCounterStore(db),
    emailLinks: createEmailLinkStore(db, dialect),
    signups: createSignupStore(db),
    ...createAccountQueries(db, runner, dialect),
    ...createGrantQueries(db, runner, dialect),
    migrate: () => migrateToLatest(db, migrationSchema),
    close: () => db.destroy(),
    async ping() {
      await sql`select 1`.execute(db);
    },
    deleteExpired: (now) => deleteExpired(db, now),
  };
}
