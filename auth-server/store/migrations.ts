/**
 * The issuer's schema as Kysely migrations, written once for SQLite and PostgreSQL alike
 * (portable column types only: text, integer, bigint). Times are Unix seconds in bigint
 * columns; JSON values are text. Migrations are kept in code (not a folder) so the
 * compiled CLI needs no files beside it. Names sort in the order they must run.
 */
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { counterMigrations } from './counters.js';
import { emailLinkMigrations } from './email-link-queries.js';
import { signupMigrations } from './signup-queries.js';

async function createCoreTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('clients')
    .ifNotExists()
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text')
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('client_name', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('signing_keys')
    .ifNotExists()
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('activates_at', 'bigint', (c) => c.notNull())
    .addColumn('retires_at', 'bigint')
    .addUniqueConstraint('signing_keys_alg_generation', ['alg', 'generation'])
    .execute();
}

async function createSessionTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('interactions')
    .ifNotExists()
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('state', 'text')
    .addColumn('nonce', 'text')
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text')
    .addColumn('max_age', 'bigint')
    .addColumn('signed_in_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createTable('consents')
    .ifNotExists()
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consents_pk', ['customer_id', 'client_id'])
    .execute();
}

async function createTokenTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('grants')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('session_id_hash', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createTable('codes')
    .ifNotExists()
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createTable('refresh_tokens')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createTable('revoked_access_tokens')
    .ifNotExists()
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function createIndexes(db: Kysely<unknown>): Promise<void> {
  const indexes: [string, string, string[]][] = [
    ['grants_session', 'grants', ['session_id_hash']],
    ['grants_customer', 'grants', ['customer_id', 'client_id']],
    ['refresh_tokens_grant', 'refresh_tokens', ['grant_id']],
    ['codes_expires', 'codes', ['expires_at']],
    ['refresh_tokens_expires', 'refresh_tokens', ['expires_at']],
    ['sessions_expires', 'sessions', ['expires_at']],
    ['interactions_expires', 'interactions', ['expires_at']],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  }
}

const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db) {
      await createCoreTables(db);
      await createSessionTables(db);
      await createTokenTables(db);
      await createIndexes(db);
    },
  },
  ...counterMigrations,
  ...emailLinkMigrations,
  ...signupMigrations,
  // RFC 8707: the resources an authorization request named travel with it into the grant,
  // which bounds every token minted from it. Null is a request that named none.
  '0006_resource_indicators': {
    async up(db) {
      await db.schema.alterTable('interactions').addColumn('resource', 'text').execute();
      await db.schema.alterTable('grants').addColumn('resource', 'text').execute();
    },
  },
};

/** Provides the in-code migrations to Kysely's Migrator. */
export const issuerMigrations: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
