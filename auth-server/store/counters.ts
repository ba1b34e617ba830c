/**
 * Shared counters for the issuer's abuse defences, kept in the same database as everything
 * else so that they hold across every instance behind a load balancer: fixed-window request
 * counters (rate limits, the registration throttle) and sign-in failure counts. A hit is
 * one atomic upsert-increment, `INSERT … ON CONFLICT (key, window_start) DO UPDATE SET
 * hits = hits + 1 RETURNING hits`, which SQLite (3.35+) and PostgreSQL both run as a single
 * statement, so two processes counting at once never lose an increment. The same handle
 * also records when a client was last used and reaps clients that never were, since those
 * are the other rows the operational side of the issuer (not the protocol) owns.
 */
import type { Kysely, Migration } from 'kysely';
import type { IssuerDatabase } from './schema.js';

export interface CountersTable {
  /** A namespaced key, e.g. `rl:client:<id>` or `signin:account:<hash>`; never a secret. */
  key: string;
  /** Start of the fixed window, Unix seconds. */
  windowStart: number;
  hits: number;
  /** When the row may be deleted (end of its window). */
  expiresAt: number;
}

type CounterDatabase = IssuerDatabase & { counters: CountersTable };

export interface CounterStore {
  /** Adds one to the counter of `key` in the window starting at `windowStart`; returns the new count. */
  hit(key: string, windowStart: number, expiresAt: number): Promise<number>;
  /** Takes one back from the counter of `key` in that window (an attempt reserved, then not spent). */
  release(key: string, windowStart: number): Promise<void>;
  /** The current count without adding to it (0 when there is none). */
  peek(key: string, windowStart: number): Promise<number>;
  /** Forgets every window of `key` (e.g. an account's failures after a good sign-in). */
  clear(key: string): Promise<void>;
  /** Deletes counters whose window has ended as of `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
  /** Records that a client obtained a token at `at` (written at most once an hour per client). */
  markClientUsed(clientId: string, at: number): Promise<void>;
  /** Deletes clients registered before `createdBefore` that never obtained a token; returns how many. */
  deleteUnusedClients(createdBefore: number): Promise<number>;
}

// A client's last use only matters to the reaper (days), so an hour's precision saves a
// write on almost every token request.
const LAST_USED_PRECISION = 3600;

async function createCounterTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('counters')
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('counters_pk', ['key', 'window_start'])
    .execute();
  await db.schema.createIndex('counters_expires').ifNotExists().on('counters').column('expires_at').execute();
  await db.schema
    .createIndex('clients_unused')
    .ifNotExists()
    .on('clients')
    .columns(['last_used_at', 'created_at'])
    .execute();
}

/** The counters' migration, merged into the issuer's migration list. */
export const counterMigrations: Record<string, Migration> = {
  '0002_counters': { up: createCounterTable },
};

/** The counter queries over the store's own Kysely handle (both dialects). */
export function createCounterStore(issuerDb: Kysely<IssuerDatabase>): CounterStore {
  const db: Kysely<CounterDatabase> = issuerDb.withTables<{ counters: CountersTable }>();
  return {
    async hit(key, windowStart, expiresAt) {
      const row = await db
        .insertInto('counters')
        .values({ key, windowStart, hits: 1, expiresAt })
        .onConflict((oc) =>
          oc.columns(['key', 'windowStart']).doUpdateSet((eb) => ({ hits: eb('counters.hits', '+', 1) })),
        )
        .returning('hits')
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },

    async release(key, windowStart) {
      await db
        .updateTable('counters')
        .set((eb) => ({ hits: eb('counters.hits', '-', 1) }))
        .where('key', '=', key)
        .where('windowStart', '=', windowStart)
        .where('hits', '>', 0)
        .execute();
    },

    async peek(key, windowStart) {
      const row = await db
        .selectFrom('counters')
        .select('hits')
        .where('key', '=', key)
        .where('windowStart', '=', windowStart)
        .executeTakeFirst();
      return row ? Number(row.hits) : 0;
    },

    async clear(key) {
      await db.deleteFrom('counters').where('key', '=', key).execute();
    },

    async deleteExpired(now) {
      const result = await db.deleteFrom('counters').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async markClientUsed(clientId, at) {
      await db
        .updateTable('clients')
        .set({ lastUsedAt: at })
        .where('clientId', '=', clientId)
        .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', at - LAST_USED_PRECISION)]))
        .execute();
    },

    deleteUnusedClients(createdBefore) {
      return db.transaction().execute(async (trx) => {
        const unused = trx
          .selectFrom('clients')
          .select('clientId')
          .where('lastUsedAt', 'is', null)
          .where('createdAt', '<', createdBefore);
        // A customer may have approved a client that then never redeemed its code.
        await trx.deleteFrom('consents').where('clientId', 'in', unused).execute();
        const result = await trx
          .deleteFrom('clients')
          .where('lastUsedAt', 'is', null)
          .where('createdAt', '<', createdBefore)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
