/**
 * Finding 3 of issue 12: the private signing keys were readable by any local user. Now the
 * SQLite folder and files are private whatever the umask, a store others can read is
 * refused with the command that fixes it, and the private keys are sealed at rest (JWE,
 * A256KW + A256GCM) under a key-encryption key, on SQLite and PostgreSQL alike: checked
 * here by opening the stored values with jose directly, by signing in and calling userinfo,
 * by restarting with no key, the wrong key and a rotated key, and by the real CLI.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactDecrypt, createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import type * as oauth from 'oauth4webapi';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../auth-server/config.js';
import { addCustomer } from '../../../auth-server/customers.js';
import { rewrapSigningKeys } from '../../../auth-server/key-protection.js';
import { parseKeyEncryptionKey } from '../../../auth-server/key-sealing.js';
import { createKeyRing } from '../../../auth-server/keys.js';
import { openStore } from '../../../auth-server/store/open-store.js';
import {
  createTestDatabase,
  describeEachDatabase,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
  type TestDatabase,
} from '../helpers/databases.js';
import { authorize, discover, registerClient } from '../helpers/oauth-client.js';
import { CUSTOMER, startProductionIssuer } from './helpers/issuer.js';
import { compileIssuer, createFreshPostgres, runCli, spawnIssuer } from './helpers/processes.js';

const newKek = () => randomBytes(32).toString('base64');
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

async function userinfoStatus(issuerUrl: string, accessToken: string): Promise<number> {
  const response = await fetch(`${issuerUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  await response.arrayBuffer();
  return response.status;
}

async function accessTokenFrom(issuer: string): Promise<string> {
  const as: oauth.AuthorizationServer = await discover(issuer);
  const client = await registerClient(as, 'none');
  const { tokens } = await authorize(as, client, { credentials: CUSTOMER, scope: 'openid' });
  return tokens.access_token;
}

async function opens(sealed: string, kek: string): Promise<Record<string, unknown>> {
  const { plaintext, protectedHeader } = await compactDecrypt(sealed, Buffer.from(kek, 'base64'));
  expect(protectedHeader).toMatchObject({ alg: 'A256KW', enc: 'A256GCM' });
  return JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>;
}

describe('the SQLite store is private whatever the umask', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-modes-'));
    await compileIssuer();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['022', '000'])(
    'under umask %s the data folder is 0700 and the database, -wal and -shm 0600',
    async (mask) => {
      const data = join(dir, `data-${mask}`);
      const db = join(data, 'auth.sqlite');
      const previous = process.umask(Number.parseInt(mask, 8));
      const store = openStore({ db });
      try {
        await store.migrate();
        await addCustomer(store, CUSTOMER, 1);
        expect((await modeOf(data)).toString(8)).toBe('700');
        for (const file of [db, `${db}-wal`, `${db}-shm`])
          expect((await modeOf(file)).toString(8)).toBe('600');
      } finally {
        process.umask(previous);
        await store.close();
      }
    },
  );

  it('serve refuses a database other users can read, saying which chmod to run', async () => {
    const db = join(dir, 'shared', 'auth.sqlite');
    const store = openStore({ db });
    await store.migrate();
    await store.close();
    await chmod(db, 0o644);
    const result = await runCli(['serve', '--port', '0', '--db', db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`chmod 600 ${db}`);
    expect(result.stdout).not.toContain('listening on');
  }, 60_000);

  it('keys rewrap moves the keys to a new key-encryption key; serve then needs the new one', async () => {
    const db = join(dir, 'rewrap', 'auth.sqlite');
    const oldFile = join(dir, 'old.kek');
    const newFile = join(dir, 'new.kek');
    const oldKek = newKek();
    const nextKek = newKek();
    await writeFile(oldFile, `${oldKek}\n`, { mode: 0o600 });
    await writeFile(newFile, `${nextKek}\n`, { mode: 0o600 });
    const first = await spawnIssuer(['--db', db, '--key-encryption-key-file', oldFile]);
    await first.stop();
    const rewrap = await runCli([
      'keys',
      'rewrap',
      '--db',
      db,
      '--old-key-file',
      oldFile,
      '--new-key-file',
      newFile,
    ]);
    expect(rewrap.stderr).toBe('');
    expect(rewrap.code).toBe(0);
    const store = openStore({ db });
    for (const row of await store.listKeys())
      expect((await opens(row.privateJwk, nextKek)).kid).toBe(row.kid);
    await store.close();
    const refused = await runCli(['serve', '--port', '0', '--db', db, '--key-encryption-key-file', oldFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/encrypted with key-encryption key/);
    const second = await spawnIssuer(['--db', db, '--key-encryption-key-file', newFile]);
    expect((await fetch(`${second.url}/.well-known/jwks.json`)).status).toBe(200);
    await second.stop();
    // A key file others can read is refused like the database.
    await chmod(newFile, 0o644);
    const shared = await runCli(['serve', '--port', '0', '--db', db, '--key-encryption-key-file', newFile]);
    expect(shared.code).toBe(1);
    expect(shared.stderr).toContain(`chmod 600 ${newFile}`);
  }, 90_000);
});

describe('PostgreSQL roles', () => {
  const skip = !POSTGRES_URL;
  it.skipIf(skip)(
    `serve runs as a role with only USAGE and SELECT, INSERT, UPDATE, DELETE once an owner has migrated${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`,
    async () => {
      await compileIssuer();
      const base = POSTGRES_URL ?? '';
      const fresh = await createFreshPostgres(base);
      const role = `agent_auth_app_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: fresh.url });
      await admin.connect();
      try {
        expect((await runCli(['migrate', '--db', fresh.url])).code).toBe(0);
        await admin.query(`CREATE ROLE ${role} LOGIN`);
        await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
        await admin.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
        await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
        const asApp = new URL(fresh.url);
        asApp.username = role;
        const kek = newKek();
        const issuer = await spawnIssuer(['--db', asApp.href], { AUTH_KEY_ENCRYPTION_KEY: kek });
        try {
          expect((await fetch(`${issuer.url}/.well-known/jwks.json`)).status).toBe(200);
        } finally {
          await issuer.stop();
        }
        const keys = await admin.query<{ kid: string; private_jwk: string }>(
          'SELECT kid, private_jwk FROM signing_keys',
        );
        expect(keys.rows).toHaveLength(2);
        for (const row of keys.rows) expect((await opens(row.private_jwk, kek)).kid).toBe(row.kid);
      } finally {
        await admin.end();
        await fresh.drop();
        const cleanup = new pg.Client({ connectionString: base });
        await cleanup.connect();
        await cleanup.query(`DROP ROLE IF EXISTS ${role}`).finally(() => cleanup.end());
      }
    },
    90_000,
  );
});

describeEachDatabase('private signing keys at rest on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let database: TestDatabase | undefined;

  async function freshDatabase(): Promise<TestDatabase> {
    database = await createTestDatabase(kind);
    const store = database.openStore();
    await store.migrate();
    await addCustomer(store, CUSTOMER, Math.floor(Date.now() / 1000));
    await store.close();
    return database;
  }
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it.skipIf(skip)(
    title(
      'with a key-encryption key the stored private keys are JWEs that only that key opens, and tokens work',
    ),
    async () => {
      const kek = newKek();
      const issuer = await startProductionIssuer({
        database: await freshDatabase(),
        config: { rateLimit: 0, keyEncryptionKey: kek },
      });
      try {
        const rows = await issuer.store.listKeys();
        expect(rows.map((r) => r.alg).sort()).toEqual(['ES256', 'RS256']);
        for (const row of rows) {
          expect(row.privateJwk).not.toContain('"d"');
          const jwk = await opens(row.privateJwk, kek);
          expect(jwk.kid).toBe(row.kid);
          expect(typeof jwk.d).toBe('string');
          await expect(opens(row.privateJwk, newKek())).rejects.toThrow();
        }
        expect(await userinfoStatus(issuer.url, await accessTokenFrom(issuer.issuer))).toBe(200);
      } finally {
        await issuer.close();
      }
    },
  );

  it.skipIf(skip)(
    title(
      'clear keys from before are sealed at the first start with a key, and tokens they signed still verify',
    ),
    async () => {
      const shared = await freshDatabase();
      const clear = await startProductionIssuer({ database: shared, config: { rateLimit: 0 } });
      const token = await accessTokenFrom(clear.issuer);
      const kids = (await clear.store.listKeys()).map((r) => r.kid).sort();
      expect(clear.logs.some((l) => l.includes('UNENCRYPTED'))).toBe(true);
      await clear.close();

      const kek = newKek();
      const sealed = await startProductionIssuer({
        database: shared,
        config: { rateLimit: 0, keyEncryptionKey: kek },
      });
      try {
        const rows = await sealed.store.listKeys();
        expect(rows.map((r) => r.kid).sort()).toEqual(kids);
        for (const row of rows) expect((await opens(row.privateJwk, kek)).kid).toBe(row.kid);
        // The same keys: the token signed before verifies against the JWKS served now.
        const jwks = (await (await fetch(`${sealed.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
        await expect(jwtVerify(token, createLocalJWKSet(jwks))).resolves.toBeDefined();
        expect(await userinfoStatus(sealed.url, await accessTokenFrom(sealed.issuer))).toBe(200);
      } finally {
        await sealed.close();
      }
    },
  );

  it.skipIf(skip)(
    title('a clear key written behind an issuer that has a key-encryption key is refused, not used to sign'),
    async () => {
      const shared = await freshDatabase();
      const kekText = newKek();
      await (
        await startProductionIssuer({ database: shared, config: { keyEncryptionKey: kekText } })
      ).close();
      const store = shared.openStore();
      try {
        // Someone with write access to the table swaps in clear keys after start-up sealed them.
        for (const row of await store.listKeys()) {
          const clear = JSON.stringify(await opens(row.privateJwk, kekText));
          expect(await store.replacePrivateJwk(row.kid, row.privateJwk, clear)).toBe(true);
        }
        const config = resolveConfig({ port: 0, db: 'unused.sqlite', keyEncryptionKey: kekText });
        const ring = createKeyRing(store, config, Date.now, parseKeyEncryptionKey(kekText, 'test'));
        await expect(
          ring.signAccessToken({
            sub: 'c1',
            clientId: 'app',
            scope: 'openid',
            authTime: 0,
            jti: 'j1',
            grantId: 'g1',
            audience: ['http://127.0.0.1'],
          }),
        ).rejects.toMatchObject({ code: 'KEYS_DAMAGED' });
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(skip)(title('sealed keys refuse a start without the key or with another key'), async () => {
    const shared = await freshDatabase();
    const kek = newKek();
    await (await startProductionIssuer({ database: shared, config: { keyEncryptionKey: kek } })).close();
    await expect(startProductionIssuer({ database: shared })).rejects.toMatchObject({ code: 'KEYS_LOCKED' });
    await expect(
      startProductionIssuer({ database: shared, config: { keyEncryptionKey: newKek() } }),
    ).rejects.toMatchObject({ code: 'KEYS_WRONG_KEK' });
  });

  it.skipIf(skip)(title('an https issuer without a key-encryption key refuses to start'), async () => {
    await expect(
      startProductionIssuer({
        database: await freshDatabase(),
        config: { issuer: 'https://auth.shop.test', mail: 'outbox' },
      }),
    ).rejects.toMatchObject({ code: 'KEYS_UNPROTECTED' });
  });

  it.skipIf(skip)(title('rewrapping moves every key to the new key-encryption key'), async () => {
    const shared = await freshDatabase();
    const oldKek = newKek();
    const nextKek = newKek();
    await (await startProductionIssuer({ database: shared, config: { keyEncryptionKey: oldKek } })).close();
    const store = shared.openStore();
    try {
      const from = parseKeyEncryptionKey(oldKek, 'old');
      const to = parseKeyEncryptionKey(nextKek, 'new');
      expect(await rewrapSigningKeys(store, from, to)).toBe(2);
      expect(await rewrapSigningKeys(store, from, to)).toBe(0);
      for (const row of await store.listKeys())
        expect((await opens(row.privateJwk, nextKek)).kid).toBe(row.kid);
    } finally {
      await store.close();
    }
    const issuer = await startProductionIssuer({
      database: shared,
      config: { rateLimit: 0, keyEncryptionKey: nextKek },
    });
    try {
      expect(await userinfoStatus(issuer.url, await accessTokenFrom(issuer.issuer))).toBe(200);
    } finally {
      await issuer.close();
    }
  });
});
