/**
 * Opens the store named by `--db`: a file path means embedded SQLite (WAL journal and a
 * busy timeout, so `customers add` can write while `serve` runs; the folder 0700 and the
 * files 0600, see file-modes.ts), a `postgres://` URL
 * means a pg Pool. `schema` (PostgreSQL only) puts every table in that schema via the
 * connections' search_path, so parallel test files or tenants never collide.
 */
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config.js';
import { preparePrivateSqliteFile } from './file-modes.js';
import { createKyselyStore } from './kysely-store.js';
import type { IssuerDatabase } from './schema.js';
import { createPreparingRunner } from './statements.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** File path (SQLite) or postgres:// URL. */
  db: string;
  /** PostgreSQL schema to use instead of `public`; created by `migrate`. */
  schema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const INT8_OID = 20;

// bigint columns hold Unix seconds, far inside Number's safe range; pg returns int8 as a
// string by default, so parse it for this pool only (no global type-parser change).
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

function openPostgres(options: OpenStoreOptions): Store {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema))
    throw new TypeError(`invalid schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: options.db,
    max: options.poolSize ?? 10,
    types: pgTypes,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<IssuerDatabase>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  // The hot statements go to the pool directly, as named prepared statements.
  return createKyselyStore(db, 'postgres', schema ?? 'public', createPreparingRunner(pool));
}

/**
 * better-sqlite3 compiles SQL in `prepare`, and Kysely prepares every query afresh; the
 * issuer runs a few dozen distinct statements, so keeping each one compiled saves that
 * work on every request (BENCHMARKS.md: `prepare` was 4–5% of the CPU under userinfo
 * and refresh load). The store never streams (`iterate`), so a statement is never busy
 * when reused. Bounded: past 500 distinct texts the cache starts over.
 */
function cacheStatements(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        if (statements.size >= 500) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openSqlite(path: string): Kysely<IssuerDatabase> {
  const file = resolve(path);
  preparePrivateSqliteFile(file);
  const database = new Database(file);
  // WAL lets readers and one writer work at once across processes; the busy timeout makes
  // a second writer (another process) wait instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // A deleted customer's bytes are overwritten with zeros, not left in free pages (issue 23);
  // the WAL's older copies go at the checkpoint that follows a deletion (email-link-queries.ts).
  database.pragma('secure_delete = ON');
  return new Kysely<IssuerDatabase>({
    dialect: new SqliteDialect({ database: cacheStatements(database) }),
    plugins: [new CamelCasePlugin()],
  });
}

/** Opens (but does not migrate) the store. */
export function openStore(options: OpenStoreOptions): Store {
  if (isPostgresUrl(options.db)) {
    return openPostgres(options);
  }
  return createKyselyStore(openSqlite(options.db), 'sqlite', undefined);
}
