/**
 * Finding 2 of issue 23: "Delete your account" leaves nothing readable. After a customer
 * deletes the account through the page, no table holds their address, name or password
 * hash (read row by row, every table, on both databases), and on SQLite the database FILES
 * hold none of their bytes either: not the main file's free space, not the `-wal` file.
 * (PostgreSQL keeps a dead row version until VACUUM reuses its space; docs/issuer-security.md
 * says so; no SQL can read it back, so the live tables are what the test can read.)
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addCustomer } from '../../auth-server/customers.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from './helpers/databases.js';
import { FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';

const EMAIL = 'zelda.residue@example.com';
const NAME = 'Zelda Quillfeather';
const PASSWORD = 'zelda keeps her secrets';

/** Every row of every table, each as text. */
async function everyRow(issuer: TestIssuer): Promise<string[]> {
  const { database } = issuer;
  if (database.kind === 'sqlite') {
    const db = new Database(database.db, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[];
      return tables.flatMap(({ name }) =>
        db
          .prepare(`SELECT * FROM "${name}"`)
          .all()
          .map((row) => JSON.stringify(row)),
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.db });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [database.schema],
    );
    const rows: string[] = [];
    for (const { table_name: table } of tables.rows) {
      const result = await client.query<{ row: string }>(
        `SELECT t::text AS row FROM "${database.schema}"."${table}" t`,
      );
      rows.push(...result.rows.map((r) => r.row));
    }
    return rows;
  } finally {
    await client.end();
  }
}

describeEachDatabase('deleting an account on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const note = skip ? ` (${POSTGRES_SKIP_REASON})` : '';
  let issuer: TestIssuer;
  beforeAll(async () => {
    if (skip) return;
    issuer = await startTestIssuer({ kind });
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  it.skipIf(skip)(`leaves no address, name or password hash in any table or file${note}`, async () => {
    const id = await addCustomer(
      issuer.store,
      { email: EMAIL, name: NAME, password: PASSWORD },
      Math.floor(Date.now() / 1000),
    );
    const hash = (await issuer.store.findCustomerById(id))?.passwordHash ?? '';
    expect(hash.length).toBeGreaterThan(20);
    const agent = new FormAgent(new URL(issuer.issuer).origin);
    await agent.follow(
      await agent.submit(await agent.get('/account'), 'Sign in', { Email: EMAIL, Password: PASSWORD }),
    );
    const deleted = await agent.submit(await agent.get('/account'), 'Delete account', { Password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(await issuer.store.findCustomerById(id)).toBeUndefined();
    // The hash's salt and key parts too, in case the encoding around them changes.
    const secrets = [EMAIL, NAME, hash, ...hash.split('$').filter((part) => part.length >= 16)];
    if (kind === 'sqlite') {
      const files = [issuer.database.db, `${issuer.database.db}-wal`].filter((file) => existsSync(file));
      for (const file of files) {
        const bytes = await readFile(file);
        for (const secret of secrets) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
      }
    }
    const rows = await everyRow(issuer);
    expect(rows.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(rows.filter((row) => row.includes(secret))).toEqual([]);
  });
});
