/**
 * The issuers under load, each started in its own process on loopback and stopped by the
 * bench: ours (`agent-auth serve --rate-limit 0`, a customer created first with
 * `agent-auth customers add`) and the peer (oidc-provider, peer-oidc-provider.ts), each on
 * a fresh SQLite file or a fresh PostgreSQL database that is created here and dropped
 * afterwards.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Credentials } from './authorize-flow.js';
import { runMeasured, startServer } from './child-process.js';
import { AUTH_CLI, benchScript, makeScratchDir } from './paths.js';

export type IssuerKind = 'ours' | 'peer';
export type DatabaseKind = 'sqlite' | 'postgres';

export interface StartedIssuer {
  url: string;
  credentials: Credentials;
  /** The server process's CPU time so far (ms; user + system), from /proc. */
  cpuMs(): Promise<number | null>;
  stop(): Promise<void>;
}

const CUSTOMER: Credentials = { email: 'bench@customer.example', password: 'correct horse battery staple 7' };

interface Database {
  db: string;
  drop(): Promise<void>;
}

async function createSqlite(label: string): Promise<Database> {
  const dir = await makeScratchDir(label);
  return { db: join(dir, 'auth.sqlite'), drop: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh database on the server of `adminUrl`, dropped (connections and all) by `drop`. */
async function createPostgres(adminUrl: string, label: string): Promise<Database> {
  const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    db: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

async function addCustomer(db: string): Promise<void> {
  const run = await runMeasured(
    process.execPath,
    [
      AUTH_CLI,
      'customers',
      'add',
      '--email',
      CUSTOMER.email,
      '--name',
      'Bench Customer',
      '--password-stdin',
      '--db',
      db,
    ],
    { input: `${CUSTOMER.password}\n`, timeoutMs: 60_000 },
  );
  if (run.exitCode !== 0) throw new Error(`agent-auth customers add exited ${run.exitCode}: ${run.stderr}`);
}

export async function startIssuerTarget(
  kind: IssuerKind,
  database: DatabaseKind,
  databaseUrl: string | undefined,
  profileDir?: string,
): Promise<StartedIssuer> {
  if (database === 'postgres' && !databaseUrl) throw new TypeError('PostgreSQL needs a database URL');
  const store =
    database === 'postgres' && databaseUrl
      ? await createPostgres(databaseUrl, kind)
      : await createSqlite(kind);
  try {
    if (kind === 'ours') await addCustomer(store.db);
    // The profile is written when the server exits (stop() ends it with SIGTERM).
    const profile = profileDir
      ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${kind}-${database}.cpuprofile`]
      : [];
    const server =
      kind === 'ours'
        ? await startServer(process.execPath, [
            ...profile,
            AUTH_CLI,
            'serve',
            '--port',
            '0',
            '--rate-limit',
            '0',
            '--db',
            store.db,
          ])
        : await startServer(process.execPath, [
            ...profile,
            benchScript('peer-oidc-provider.js'),
            '--db',
            store.db,
          ]);
    return {
      url: server.url,
      credentials: CUSTOMER,
      cpuMs: () => server.cpuMs(),
      async stop() {
        await server.stop();
        await store.drop();
      },
    };
  } catch (error) {
    await store.drop();
    throw error;
  }
}
