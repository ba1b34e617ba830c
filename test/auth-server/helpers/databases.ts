/**
 * The databases the issuer's suites run against: always a SQLite file in a fresh temp
 * dir, and the machine's PostgreSQL when TEST_DATABASE_URL is set, each test store in its
 * own schema (`t_<random>`) that is dropped afterwards, so parallel test files never collide.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import { openStore } from '../../../auth-server/store/open-store.js';
import type { Store } from '../../../auth-server/store/store.js';
import { type Requirement, requires } from '../../helpers/requirements.js';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;
export const POSTGRES_SKIP_REASON =
  'PostgreSQL suites: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)';

/** The suites that run on PostgreSQL need the machine's server. */
export const POSTGRES: Requirement = {
  met: POSTGRES_URL !== undefined && POSTGRES_URL !== '',
  skipReason: POSTGRES_SKIP_REASON,
};

export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  /** The value to pass as --db. */
  db: string;
  schema?: string;
  openStore(): Store;
  drop(): Promise<void>;
}

export async function createSqliteDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-auth-'));
  const db = join(dir, 'auth.sqlite');
  return {
    kind: 'sqlite',
    db,
    openStore: () => openStore({ db }),
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function createPostgresDatabase(url: string): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    kind: 'postgres',
    db: url,
    schema,
    openStore: () => openStore({ db: url, schema, poolSize: 5 }),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The database kinds to run a suite against, for `describe.each`. */
export const DATABASE_KINDS: readonly ('sqlite' | 'postgres')[] = ['sqlite', 'postgres'];

/**
 * `describe.each(DATABASE_KINDS)` that also says why the PostgreSQL half skips: one suite
 * per kind, `%s` in the name replaced by the kind, the PostgreSQL one `requires(POSTGRES)`.
 */
export function describeEachDatabase(name: string, body: (kind: 'sqlite' | 'postgres') => void): void {
  for (const kind of DATABASE_KINDS)
    describe(name.replace('%s', kind), kind === 'postgres' ? requires(POSTGRES) : {}, () => body(kind));
}

export function createTestDatabase(kind: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'postgres') {
    if (!POSTGRES_URL) throw new Error(POSTGRES_SKIP_REASON);
    return createPostgresDatabase(POSTGRES_URL);
  }
  return createSqliteDatabase();
}
