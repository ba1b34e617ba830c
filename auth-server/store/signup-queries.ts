/**
 * Sign-ups waiting for their link to be followed (issue 23, finding 6: squatting). A sign-up
 * creates no account: the address and the name typed into the form are kept here, tied to
 * the hash of the mailed token, and become an account only when someone who reads that
 * mailbox follows the link and chooses a password. Until then the pending row owns nothing:
 * a later sign-up for the address replaces it, an invitation or import (or `customers add`)
 * discards it and creates the account, and it expires with its link (24 hours). The
 * migration also removes accounts an older version opened for a sign-up that was never
 * confirmed (no password, address not verified, a sign-up link), so squatters from before
 * lose them too.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { isUniqueViolation } from './conflicts.js';
import type { IssuerDatabase } from './schema.js';

export interface PendingSignupRow {
  tokenHash: string;
  email: string;
  name: string;
  createdAt: number;
  expiresAt: number;
}

type SignupDatabase = IssuerDatabase & { pendingSignups: PendingSignupRow };

export interface SignupStore {
  /** Stores a pending sign-up, replacing any other one for the same address. */
  createPending(row: PendingSignupRow): Promise<void>;
  /** The live pending sign-up a token hash names, or undefined (unknown or expired). */
  findPending(tokenHash: string, now: number): Promise<PendingSignupRow | undefined>;
  /** Forgets every pending sign-up for `email` (an invitation or import took the address). */
  discard(email: string): Promise<void>;
  /**
   * Spends a live pending sign-up and opens its account, verified, with `passwordHash`, in
   * one transaction; returns the new customer's id, or undefined when the link is dead or
   * the address has an account by now.
   */
  confirm(
    tokenHash: string,
    customerId: string,
    passwordHash: string,
    at: number,
  ): Promise<string | undefined>;
  /** Deletes pending sign-ups that expired before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
}

async function createPendingSignups(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_signups')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pending_signups_email')
    .ifNotExists()
    .on('pending_signups')
    .column('email')
    .execute();
  // Accounts a sign-up opened before this version and nobody confirmed: they own nothing now.
  const squatted = sql`SELECT customer_id FROM email_tokens WHERE purpose = 'signup'`;
  await sql`DELETE FROM customers WHERE password_hash = '' AND email_verified_at IS NULL AND id IN (${squatted})`.execute(
    db,
  );
  await sql`DELETE FROM email_tokens WHERE customer_id NOT IN (SELECT id FROM customers)`.execute(db);
}

/**
 * The pending sign-ups' migration, merged into the issuer's migration list. Numbered 0005:
 * 0004 is taken by the resource indicators' migration (issue 22), and names run in order.
 */
export const signupMigrations: Record<string, Migration> = {
  '0005_pending_signups': { up: createPendingSignups },
};

/** Thrown inside `confirm`'s transaction to roll it back when the address was taken meanwhile. */
class AddressTaken extends Error {}

export function createSignupStore(issuerDb: Kysely<IssuerDatabase>): SignupStore {
  const db: Kysely<SignupDatabase> = issuerDb.withTables<{ pendingSignups: PendingSignupRow }>();
  return {
    async createPending(row) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('pendingSignups').where('email', '=', row.email).execute();
        await trx.insertInto('pendingSignups').values(row).execute();
      });
    },

    findPending(tokenHash, now) {
      return db
        .selectFrom('pendingSignups')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
    },

    async discard(email) {
      await db.deleteFrom('pendingSignups').where('email', '=', email).execute();
    },

    async confirm(tokenHash, customerId, passwordHash, at) {
      try {
        return await db.transaction().execute(async (trx) => {
          const pending = await trx
            .deleteFrom('pendingSignups')
            .where('tokenHash', '=', tokenHash)
            .where('expiresAt', '>', at)
            .returning(['email', 'name'])
            .executeTakeFirst();
          if (!pending) return undefined;
          await trx
            .insertInto('customers')
            .values({
              id: customerId,
              email: pending.email,
              name: pending.name,
              passwordHash,
              createdAt: at,
              emailVerifiedAt: at,
            })
            .execute()
            .catch((error: unknown) => {
              throw isUniqueViolation(error) ? new AddressTaken() : error;
            });
          return customerId;
        });
      } catch (error) {
        if (error instanceof AddressTaken) return undefined;
        throw error;
      }
    },

    async deleteExpired(now) {
      const result = await db.deleteFrom('pendingSignups').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
