/**
 * The refresh and userinfo paths' queries, as few round trips as the dialect allows: the
 * refresh token is read with its grant in one join (before it is spent: commit 47056b4),
 * and spending it and storing its successor is one statement on PostgreSQL (a
 * data-modifying CTE around `UPDATE … WHERE consumed_at IS NULL`), two on SQLite; userinfo
 * reads the grant, the `jti` revocation and the customer in one query. All of them are
 * precompiled statements (statements.ts).
 */

import type { BearerContext, GrantRow, RefreshTokenRow, RefreshTokenWithGrant } from './rows.js';
import { type Dialect, defineStatement, readFlag, type StatementRunner } from './statements.js';

const GRANT_COLUMNS = `g.id, g.client_id AS "clientId", g.customer_id AS "customerId",
  g.session_id_hash AS "sessionIdHash", g.scope, g.resource, g.auth_time AS "authTime", g.created_at AS "createdAt",
  g.expires_at AS "expiresAt", g.revoked_at AS "revokedAt"`;

type TokenGrantRow = Omit<RefreshTokenRow, 'clientId'> & {
  tokenClientId: string;
  tokenCreatedAt: number;
  tokenExpiresAt: number;
} & { [K in keyof GrantRow]: GrantRow[K] | null };

interface BearerRow {
  customerId: string;
  expiresAt: number;
  revokedAt: number | null;
  jtiRevoked: unknown;
  id: string | null;
  email: string | null;
  name: string | null;
  emailVerifiedAt: number | null;
}

function defineHotStatements(dialect: Dialect) {
  return {
    // LEFT JOIN: a token whose grant was cleaned up still reads, and is then refused.
    tokenWithGrant: defineStatement(
      dialect,
      'refresh_token_with_grant',
      `SELECT t.token_hash AS "tokenHash", t.grant_id AS "grantId", t.client_id AS "tokenClientId",
        t.created_at AS "tokenCreatedAt", t.expires_at AS "tokenExpiresAt", t.consumed_at AS "consumedAt",
        ${GRANT_COLUMNS}
       FROM refresh_tokens t LEFT JOIN grants g ON g.id = t.grant_id WHERE t.token_hash = ?`,
    ),
    spend: defineStatement(
      dialect,
      'spend_refresh_token',
      'UPDATE refresh_tokens SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL',
    ),
    insertToken: defineStatement(
      dialect,
      'insert_refresh_token',
      `INSERT INTO refresh_tokens (token_hash, grant_id, client_id, created_at, expires_at, consumed_at)
       VALUES (?, ?, ?, ?, ?, NULL)`,
    ),
    deleteToken: defineStatement(
      dialect,
      'delete_refresh_token',
      'DELETE FROM refresh_tokens WHERE token_hash = ?',
    ),
    // PostgreSQL only, one statement: the INSERT sees the UPDATE's rows only when this call spent the token.
    spendAndInsert: defineStatement(
      dialect,
      'rotate_refresh_token',
      `WITH spent AS (
         UPDATE refresh_tokens SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL RETURNING 1
       )
       INSERT INTO refresh_tokens (token_hash, grant_id, client_id, created_at, expires_at, consumed_at)
       SELECT ?::text, ?::text, ?::text, ?::bigint, ?::bigint, NULL FROM spent`,
    ),
    bearer: defineStatement(
      dialect,
      'bearer_context',
      `SELECT g.customer_id AS "customerId", g.expires_at AS "expiresAt", g.revoked_at AS "revokedAt",
        EXISTS (SELECT 1 FROM revoked_access_tokens r WHERE r.jti = ?) AS "jtiRevoked", c.id, c.email, c.name,
        c.email_verified_at AS "emailVerifiedAt"
       FROM grants g LEFT JOIN customers c ON c.id = g.customer_id WHERE g.id = ?`,
    ),
  };
}

function toTokenWithGrant(row: TokenGrantRow): RefreshTokenWithGrant {
  const token: RefreshTokenRow = {
    tokenHash: row.tokenHash,
    grantId: row.grantId,
    clientId: row.tokenClientId,
    createdAt: row.tokenCreatedAt,
    expiresAt: row.tokenExpiresAt,
    consumedAt: row.consumedAt,
  };
  const { id, clientId, customerId, sessionIdHash, scope, authTime, createdAt, expiresAt } = row;
  if (
    id === null ||
    clientId === null ||
    customerId === null ||
    sessionIdHash === null ||
    scope === null ||
    authTime === null ||
    createdAt === null ||
    expiresAt === null
  ) {
    return { token, grant: undefined };
  }
  const grant = { id, clientId, customerId, sessionIdHash, scope, authTime, createdAt, expiresAt };
  return { token, grant: { ...grant, resource: row.resource, revokedAt: row.revokedAt } };
}

function toBearerContext(row: BearerRow): BearerContext {
  const { id, email, name } = row;
  return {
    grant: { customerId: row.customerId, expiresAt: row.expiresAt, revokedAt: row.revokedAt },
    accessTokenRevoked: readFlag(row.jtiRevoked),
    customer:
      id === null || email === null || name === null
        ? undefined
        : { id, email, name, emailVerified: row.emailVerifiedAt !== null },
  };
}

function tokenValues(row: RefreshTokenRow): (string | number)[] {
  return [row.tokenHash, row.grantId, row.clientId, row.createdAt, row.expiresAt];
}

/** The refresh and userinfo paths, on precompiled statements. */
export function createHotQueries(runner: StatementRunner, dialect: Dialect) {
  const statements = defineHotStatements(dialect);
  return {
    async findRefreshTokenWithGrant(tokenHash: string): Promise<RefreshTokenWithGrant | undefined> {
      const row = (await runner.run<TokenGrantRow>(statements.tokenWithGrant, [tokenHash])).rows[0];
      return row ? toTokenWithGrant(row) : undefined;
    },

    async rotateRefreshToken(tokenHash: string, at: number, successor: RefreshTokenRow | undefined) {
      if (successor === undefined) {
        return (await runner.run(statements.spend, [at, tokenHash])).affectedRows === 1;
      }
      if (dialect === 'postgres') {
        const parameters = [at, tokenHash, ...tokenValues(successor)];
        return (await runner.run(statements.spendAndInsert, parameters)).affectedRows === 1;
      }
      // SQLite: successor first, then the conditional spend; no transaction is held open across
      // awaits (another process would sit in its busy timeout). Until the spend wins nobody
      // knows the successor's secret, and a crash in between leaves the old token valid.
      await runner.run(statements.insertToken, tokenValues(successor));
      if ((await runner.run(statements.spend, [at, tokenHash])).affectedRows === 1) return true;
      await runner.run(statements.deleteToken, [successor.tokenHash]);
      return false;
    },

    async findBearerContext(grantId: string, jti: string): Promise<BearerContext | undefined> {
      const row = (await runner.run<BearerRow>(statements.bearer, [jti, grantId])).rows[0];
      return row ? toBearerContext(row) : undefined;
    },
  };
}
