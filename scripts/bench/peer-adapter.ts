/**
 * A storage adapter for the peer issuer (oidc-provider) on the same databases ours uses,
 * so the comparison is database for database rather than our SQLite against its in-memory
 * LRU: one table of JSON payloads keyed by model and id, with the grant id and uid beside
 * them for `revokeByGrantId` and `findByUid`. SQLite runs with the pragmas our store uses
 * (WAL, synchronous NORMAL); PostgreSQL through a pg Pool of 10 like ours.
 */
import Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import pg from 'pg';

interface Row {
  payload: string;
  consumed_at: number | null;
}

/** The four statements the adapter needs, over either database. */
interface PayloadTable {
  get(column: 'id' | 'uid' | 'user_code', model: string, key: string): Promise<Row | undefined>;
  put(model: string, id: string, payload: AdapterPayload, expiresAt: number | null): Promise<void>;
  consume(model: string, id: string, at: number): Promise<void>;
  remove(column: 'id' | 'grant_id', model: string, key: string): Promise<void>;
  close(): Promise<void>;
}

const COLUMNS =
  '(model text, id text, payload text, grant_id text, uid text, user_code text, expires_at bigint, consumed_at bigint, primary key (model, id))';

/** The stored columns of one payload, in the order both tables' insert statements take them. */
function rowValues(model: string, id: string, payload: AdapterPayload, expiresAt: number | null) {
  return [
    model,
    id,
    JSON.stringify(payload),
    str(payload.grantId),
    str(payload.uid),
    str(payload.userCode),
    expiresAt,
  ];
}

function createSqliteTable(path: string): PayloadTable {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    `create table if not exists oidc ${COLUMNS}; create index if not exists oidc_grant on oidc (grant_id); create index if not exists oidc_uid on oidc (uid)`,
  );
  const put = db.prepare(
    'insert into oidc (model, id, payload, grant_id, uid, user_code, expires_at) values (?, ?, ?, ?, ?, ?, ?) on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at',
  );
  const consume = db.prepare('update oidc set consumed_at = ? where model = ? and id = ?');
  const get = {
    id: db.prepare('select payload, consumed_at from oidc where model = ? and id = ?'),
    uid: db.prepare('select payload, consumed_at from oidc where model = ? and uid = ?'),
    user_code: db.prepare('select payload, consumed_at from oidc where model = ? and user_code = ?'),
  };
  const remove = {
    id: db.prepare('delete from oidc where model = ? and id = ?'),
    grant_id: db.prepare('delete from oidc where grant_id = ?'),
  };
  return {
    get: async (column, model, key) => get[column].get(model, key) as Row | undefined,
    put: async (model, id, payload, expiresAt) => {
      put.run(...rowValues(model, id, payload, expiresAt));
    },
    consume: async (model, id, at) => {
      consume.run(at, model, id);
    },
    remove: async (column, model, key) => {
      if (column === 'id') remove.id.run(model, key);
      else remove.grant_id.run(key);
    },
    close: async () => {
      db.close();
    },
  };
}

function createPostgresTable(url: string): PayloadTable {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const ready = pool.query(
    `create table if not exists oidc ${COLUMNS}; create index if not exists oidc_grant on oidc (grant_id); create index if not exists oidc_uid on oidc (uid)`,
  );
  const query = async (text: string, values: unknown[]) => {
    await ready;
    return pool.query(text, values);
  };
  return {
    get: async (column, model, key) =>
      (await query(`select payload, consumed_at from oidc where model = $1 and ${column} = $2`, [model, key]))
        .rows[0] as Row | undefined,
    put: async (model, id, payload, expiresAt) => {
      await query(
        'insert into oidc (model, id, payload, grant_id, uid, user_code, expires_at) values ($1, $2, $3, $4, $5, $6, $7) on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at',
        rowValues(model, id, payload, expiresAt),
      );
    },
    consume: async (model, id, at) => {
      await query('update oidc set consumed_at = $1 where model = $2 and id = $3', [at, model, id]);
    },
    remove: async (column, model, key) => {
      if (column === 'id') await query('delete from oidc where model = $1 and id = $2', [model, key]);
      else await query('delete from oidc where grant_id = $1', [key]);
    },
    close: () => pool.end(),
  };
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function inflate(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
}

/** An oidc-provider adapter factory over a SQLite file path or a postgres:// URL. */
export function createPeerAdapter(db: string): {
  factory: (model: string) => Adapter;
  close(): Promise<void>;
} {
  const table = /^postgres(ql)?:\/\//.test(db) ? createPostgresTable(db) : createSqliteTable(db);
  const now = () => Math.floor(Date.now() / 1000);
  const factory = (model: string): Adapter => ({
    upsert: (id, payload, expiresIn) => table.put(model, id, payload, expiresIn ? now() + expiresIn : null),
    find: async (id) => inflate(await table.get('id', model, id)),
    findByUid: async (uid) => inflate(await table.get('uid', model, uid)),
    findByUserCode: async (code) => inflate(await table.get('user_code', model, code)),
    consume: (id) => table.consume(model, id, now()),
    destroy: (id) => table.remove('id', model, id),
    revokeByGrantId: (grantId) => table.remove('grant_id', model, grantId),
  });
  return { factory, close: () => table.close() };
}
