/**
 * The store's queries for what customers do through mailed links and on their account page:
 * single-use email tokens (invitation, password reset, sign-up confirmation), verifying the
 * address, changing the password and deleting the account. Tokens are kept only as SHA-256
 * hashes (they are 256 random bits, so a fast hash suffices, as for session ids). Spending a
 * token is one conditional UPDATE (`… WHERE used_at IS NULL AND expires_at > now`) whose
 * row count decides, so two clicks of one link never both set a password. Every change of
 * password ends the customer's sessions and revokes their grants, refresh tokens included,
 * in the same transaction.
 *
 * Lock order (issue 23, finding 4): every transaction here that spends a token, changes a
 * password or deletes the account locks the customer's row first (`SELECT … FOR UPDATE` on
 * PostgreSQL; SQLite has one writer at a time), and only then its tokens, sessions and
 * grants; so two links of one account spent at once queue up instead of deadlocking, and the
 * second finds its token gone. A serialization failure or deadlock is still retried
 * (conflicts.ts). After a deletion SQLite checkpoints its WAL (with `secure_delete` set at
 * open), so the deleted customer's bytes are not left readable in the database files.
 */
import { type Kysely, type Migration, sql, type Transaction } from 'kysely';
import { retryOnConflict } from './conflicts.js';
import type { IssuerDatabase } from './schema.js';
import type { Dialect } from './statements.js';

export type EmailTokenPurpose = 'invite' | 'reset' | 'signup';

export interface EmailTokenRow {
  tokenHash: string;
  customerId: string;
  purpose: EmailTokenPurpose;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

type LinkDatabase = IssuerDatabase & { emailTokens: EmailTokenRow };

export interface EmailLinkStore {
  /** Stores a token, replacing the customer's unused tokens of the same purpose. */
  createToken(row: EmailTokenRow): Promise<void>;
  findToken(tokenHash: string): Promise<EmailTokenRow | undefined>;
  /** Marks the address verified (the first time a mailed link is followed). */
  markEmailVerified(customerId: string, at: number): Promise<void>;
  /**
   * Spends a live token and sets the password in one transaction, also verifying the address,
   * ending every session and revoking every grant; returns the customer's id, or undefined
   * when the token was unknown, used or expired.
   */
  spendToken(tokenHash: string, passwordHash: string, at: number): Promise<string | undefined>;
  /** Sets a new password and ends every other session (and its grants). */
  changePassword(
    customerId: string,
    passwordHash: string,
    keepSessionIdHash: string,
    at: number,
  ): Promise<void>;
  /** Erases the customer's personal data and revokes all of their access; false when unknown. */
  deleteCustomer(customerId: string, at: number): Promise<boolean>;
  /** Deletes tokens that expired before `now`; returns how many. */
  deleteExpiredTokens(now: number): Promise<number>;
}

async function addEmailLinks(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('email_verified_at', 'bigint').execute();
  await db.schema
    .createTable('email_tokens')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('email_tokens_customer')
    .ifNotExists()
    .on('email_tokens')
    .column('customer_id')
    .execute();
}

/** The mailed links' migration, merged into the issuer's migration list. */
export const emailLinkMigrations: Record<string, Migration> = {
  '0003_email_links': { up: addEmailLinks },
};

/** Ends sessions and revokes grants of a customer, all or all but one session's. */
async function endAccess(
  trx: Transaction<LinkDatabase>,
  customerId: string,
  at: number,
  keepSessionIdHash?: string,
): Promise<void> {
  let sessions = trx
    .updateTable('sessions')
    .set({ endedAt: at })
    .where('customerId', '=', customerId)
    .where('endedAt', 'is', null);
  let grants = trx
    .updateTable('grants')
    .set({ revokedAt: at })
    .where('customerId', '=', customerId)
    .where('revokedAt', 'is', null);
  if (keepSessionIdHash !== undefined) {
    sessions = sessions.where('idHash', '!=', keepSessionIdHash);
    grants = grants.where('sessionIdHash', '!=', keepSessionIdHash);
  }
  await sessions.execute();
  await grants.execute();
}

/** Locks the customer's row for the rest of the transaction (PostgreSQL); false when there is none. */
async function lockCustomer(trx: Transaction<LinkDatabase>, dialect: Dialect, customerId: string) {
  let query = trx.selectFrom('customers').select('id').where('id', '=', customerId);
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

export function createEmailLinkStore(issuerDb: Kysely<IssuerDatabase>, dialect: Dialect): EmailLinkStore {
  const db: Kysely<LinkDatabase> = issuerDb.withTables<{ emailTokens: EmailTokenRow }>();
  return {
    async createToken(row) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('emailTokens')
          .where('customerId', '=', row.customerId)
          .where('purpose', '=', row.purpose)
          .where('usedAt', 'is', null)
          .execute();
        await trx.insertInto('emailTokens').values(row).execute();
      });
    },

    findToken(tokenHash) {
      return db.selectFrom('emailTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
    },

    async markEmailVerified(customerId, at) {
      await db
        .updateTable('customers')
        .set({ emailVerifiedAt: at })
        .where('id', '=', customerId)
        .where('emailVerifiedAt', 'is', null)
        .execute();
    },

    async spendToken(tokenHash, passwordHash, at) {
      // Whose token it is, read before the transaction: the customer is locked first.
      const owner = await db
        .selectFrom('emailTokens')
        .select('customerId')
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst();
      if (!owner) return undefined;
      const { customerId } = owner;
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          if (!(await lockCustomer(trx, dialect, customerId))) return undefined;
          const spent = await trx
            .updateTable('emailTokens')
            .set({ usedAt: at })
            .where('tokenHash', '=', tokenHash)
            .where('usedAt', 'is', null)
            .where('expiresAt', '>', at)
            .executeTakeFirst();
          if (Number(spent.numUpdatedRows) !== 1) return undefined;
          await trx
            .updateTable('customers')
            .set((eb) => ({ passwordHash, emailVerifiedAt: eb.fn.coalesce('emailVerifiedAt', eb.val(at)) }))
            .where('id', '=', customerId)
            .execute();
          // The customer's other links die with this one: one reset, one new password.
          await trx
            .deleteFrom('emailTokens')
            .where('customerId', '=', customerId)
            .where('usedAt', 'is', null)
            .execute();
          await endAccess(trx, customerId, at);
          return customerId;
        }),
      );
    },

    async changePassword(customerId, passwordHash, keepSessionIdHash, at) {
      await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await lockCustomer(trx, dialect, customerId);
          await trx.updateTable('customers').set({ passwordHash }).where('id', '=', customerId).execute();
          // A reset link already in the mailbox must not undo a change made over it.
          await trx
            .deleteFrom('emailTokens')
            .where('customerId', '=', customerId)
            .where('usedAt', 'is', null)
            .execute();
          await endAccess(trx, customerId, at, keepSessionIdHash);
        }),
      );
    },

    async deleteCustomer(customerId, at) {
      const deleted = await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          if (!(await lockCustomer(trx, dialect, customerId))) return false;
          await endAccess(trx, customerId, at);
          await trx.deleteFrom('consents').where('customerId', '=', customerId).execute();
          await trx.deleteFrom('emailTokens').where('customerId', '=', customerId).execute();
          await trx.deleteFrom('sessions').where('customerId', '=', customerId).execute();
          const result = await trx.deleteFrom('customers').where('id', '=', customerId).executeTakeFirst();
          return Number(result.numDeletedRows) === 1;
        }),
      );
      // The WAL still holds the row's earlier page images: copy the zeroed pages into the
      // database and truncate the WAL. Best effort: a reader in another process can hold it.
      if (deleted && dialect === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
      return deleted;
    },

    async deleteExpiredTokens(now) {
      const result = await db.deleteFrom('emailTokens').where('expiresAt', '<', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
