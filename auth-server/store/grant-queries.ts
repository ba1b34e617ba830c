/**
 * The store's protocol half: grants, authorization codes, refresh tokens and revoked access
 * tokens. Single-use redemptions are one conditional `UPDATE … WHERE consumed_at IS NULL`
 * whose affected rows decide the outcome (never check-then-set), so two processes on one
 * database cannot both win. The refresh and userinfo paths' queries live in hot-queries.ts.
 */
import type { Kysely } from 'kysely';
import { createHotQueries } from './hot-queries.js';
import type { IssuerDatabase } from './schema.js';
import type { Dialect, StatementRunner } from './statements.js';
import type { Store } from './store.js';

type GrantQueries = Pick<
  Store,
  | 'createGrant'
  | 'findGrant'
  | 'revokeGrant'
  | 'revokeClientAccess'
  | 'listActiveGrants'
  | 'createCode'
  | 'redeemCode'
  | 'findCode'
  | 'createRefreshToken'
  | 'findRefreshToken'
  | 'findRefreshTokenWithGrant'
  | 'rotateRefreshToken'
  | 'revokeAccessToken'
  | 'isAccessTokenRevoked'
  | 'findBearerContext'
>;

export function createGrantQueries(
  db: Kysely<IssuerDatabase>,
  runner: StatementRunner,
  dialect: Dialect,
): GrantQueries {
  return {
    ...createHotQueries(runner, dialect),

    async createGrant(row) {
      await db.insertInto('grants').values(row).execute();
    },

    findGrant(id) {
      return db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async revokeGrant(id, at) {
      await db
        .updateTable('grants')
        .set({ revokedAt: at })
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .execute();
    },

    async revokeClientAccess(customerId, clientId, at) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('grants')
          .set({ revokedAt: at })
          .where('customerId', '=', customerId)
          .where('clientId', '=', clientId)
          .where('revokedAt', 'is', null)
          .execute();
        await trx
          .deleteFrom('consents')
          .where('customerId', '=', customerId)
          .where('clientId', '=', clientId)
          .execute();
      });
    },

    listActiveGrants(customerId, now) {
      return db
        .selectFrom('grants')
        .selectAll()
        .where('customerId', '=', customerId)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .orderBy('createdAt')
        .execute();
    },

    async createCode(row) {
      await db.insertInto('codes').values(row).execute();
    },

    async redeemCode(codeHash, at) {
      // RETURNING gives the winner its row in the same statement; only a loser reads again.
      const spent = await db
        .updateTable('codes')
        .set({ consumedAt: at })
        .where('codeHash', '=', codeHash)
        .where('consumedAt', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (spent) return { outcome: 'redeemed', row: spent };
      const row = await db
        .selectFrom('codes')
        .selectAll()
        .where('codeHash', '=', codeHash)
        .executeTakeFirst();
      return row ? { outcome: 'already-used', row } : { outcome: 'unknown' };
    },

    findCode(codeHash) {
      return db.selectFrom('codes').selectAll().where('codeHash', '=', codeHash).executeTakeFirst();
    },

    async createRefreshToken(row) {
      await db.insertInto('refreshTokens').values(row).execute();
    },

    findRefreshToken(tokenHash) {
      return db.selectFrom('refreshTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
    },

    async revokeAccessToken(jti, expiresAt) {
      await db
        .insertInto('revokedAccessTokens')
        .values({ jti, expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },

    async isAccessTokenRevoked(jti) {
      const row = await db
        .selectFrom('revokedAccessTokens')
        .select('jti')
        .where('jti', '=', jti)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
