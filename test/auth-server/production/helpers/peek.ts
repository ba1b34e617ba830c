/**
 * Reads one column the store does not expose (a client's `last_used_at`) straight from the
 * test database, SQLite or PostgreSQL, so a test can wait (bounded) for a write the issuer
 * makes after its response has gone out.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestDatabase } from '../../helpers/databases.js';

export async function readLastUsedAt(
  database: TestDatabase,
  clientId: string,
): Promise<number | null | undefined> {
  if (database.kind === 'sqlite') {
    const db = new Database(database.db, { readonly: true });
    try {
      const row: unknown = db
        .prepare('select last_used_at as v from clients where client_id = ?')
        .get(clientId);
      return typeof row === 'object' && row !== null && 'v' in row ? (row.v as number | null) : undefined;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.db });
  await client.connect();
  try {
    const result = await client.query(
      `select last_used_at as v from ${database.schema ?? 'public'}.clients where client_id = $1`,
      [clientId],
    );
    const value: unknown = result.rows[0]?.v;
    return value === undefined ? undefined : value === null ? null : Number(value);
  } finally {
    await client.end();
  }
}

/** Polls `read` until it returns a non-null value, at most `attempts` times. */
export async function waitForValue<T>(read: () => Promise<T | null | undefined>, attempts = 100): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no value after ${attempts} attempts`);
}
