/**
 * The store's account half: customers, registered clients, signing keys, sign-in
 * interactions, sessions and remembered consent. Client rows keep their JSON-valued
 * metadata as text and are parsed here, at the boundary, into the issuer's `ClientRow`.
 * `findClient` runs on every token request (client authentication, RFC 6749 §2.3), so it is
 * a precompiled statement (statements.ts) rather than a query built per request.
 */
import type { Kysely } from 'kysely';
import { isUniqueViolation } from './conflicts.js';
import type { ClientRow, KeyAlg, KeyRow } from './rows.js';
import type { ClientsTable, IssuerDatabase, SigningKeysTable } from './schema.js';
import { type Dialect, defineStatement, type StatementRunner } from './statements.js';
import type { Store } from './store.js';

type AccountQueries = Pick<
  Store,
  | 'createCustomer'
  | 'findCustomerByEmail'
  | 'findCustomerById'
  | 'createClient'
  | 'saveClient'
  | 'findClient'
  | 'findClients'
  | 'listKeys'
  | 'insertKey'
  | 'retireKeysBefore'
  | 'replacePrivateJwk'
  | 'createInteraction'
  | 'findInteraction'
  | 'markInteractionSignedIn'
  | 'deleteInteraction'
  | 'createSession'
  | 'findSession'
  | 'renewSessionAuthTime'
  | 'endSession'
  | 'findConsent'
  | 'saveConsent'
>;

function parseJsonArray(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function parseJsonObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function toClientRow(row: ClientsTable): ClientRow {
  return {
    clientId: row.clientId,
    secretHash: row.secretHash,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    redirectUris: parseJsonArray(row.redirectUris),
    postLogoutRedirectUris: parseJsonArray(row.postLogoutRedirectUris),
    grantTypes: parseJsonArray(row.grantTypes),
    scope: row.scope,
    clientName: row.clientName,
    metadata: parseJsonObject(row.metadata),
    createdAt: row.createdAt,
  };
}

function toKeyRow(row: SigningKeysTable): KeyRow {
  const alg: KeyAlg = row.alg === 'RS256' ? 'RS256' : 'ES256';
  return { ...row, alg };
}

const CLIENT_COLUMNS = `client_id AS "clientId", secret_hash AS "secretHash",
  token_endpoint_auth_method AS "tokenEndpointAuthMethod", redirect_uris AS "redirectUris",
  post_logout_redirect_uris AS "postLogoutRedirectUris", grant_types AS "grantTypes", scope,
  client_name AS "clientName", metadata, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

function createCustomerQueries(db: Kysely<IssuerDatabase>, runner: StatementRunner, dialect: Dialect) {
  const clientById = defineStatement(
    dialect,
    'client_by_id',
    `SELECT ${CLIENT_COLUMNS} FROM clients WHERE client_id = ?`,
  );
  // Registration's one write, fixed at start-up: Kysely rebuilt it on every registration.
  const insertClient = defineStatement(
    dialect,
    'insert_client',
    `INSERT INTO clients (client_id, secret_hash, token_endpoint_auth_method, redirect_uris,
      post_logout_redirect_uris, grant_types, scope, client_name, metadata, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  return {
    async createCustomer(row: Parameters<Store['createCustomer']>[0]): Promise<boolean> {
      try {
        await db.insertInto('customers').values(row).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    findCustomerByEmail(email: string) {
      return db.selectFrom('customers').selectAll().where('email', '=', email).executeTakeFirst();
    },

    findCustomerById(id: string) {
      return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async createClient(row: ClientRow): Promise<void> {
      await runner.run(insertClient, [
        row.clientId,
        row.secretHash,
        row.tokenEndpointAuthMethod,
        JSON.stringify(row.redirectUris),
        JSON.stringify(row.postLogoutRedirectUris),
        JSON.stringify(row.grantTypes),
        row.scope,
        row.clientName,
        JSON.stringify(row.metadata),
        row.createdAt,
      ]);
    },

    async saveClient(row: ClientRow): Promise<void> {
      const values = {
        clientId: row.clientId,
        secretHash: row.secretHash,
        tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
        redirectUris: JSON.stringify(row.redirectUris),
        postLogoutRedirectUris: JSON.stringify(row.postLogoutRedirectUris),
        grantTypes: JSON.stringify(row.grantTypes),
        scope: row.scope,
        clientName: row.clientName,
        metadata: JSON.stringify(row.metadata),
        createdAt: row.createdAt,
      };
      // The registration date of a client seen before stays; its metadata follows the document.
      const { clientId: _id, createdAt: _created, ...changed } = values;
      await db
        .insertInto('clients')
        .values(values)
        .onConflict((oc) => oc.column('clientId').doUpdateSet(changed))
        .execute();
    },

    async findClient(clientId: string): Promise<ClientRow | undefined> {
      const row = (await runner.run<ClientsTable>(clientById, [clientId])).rows[0];
      return row ? toClientRow(row) : undefined;
    },

    async findClients(clientIds: readonly string[]): Promise<ClientRow[]> {
      if (clientIds.length === 0) return [];
      const rows = await db.selectFrom('clients').selectAll().where('clientId', 'in', clientIds).execute();
      return rows.map(toClientRow);
    },
  };
}

function createKeyQueries(db: Kysely<IssuerDatabase>) {
  return {
    async listKeys(): Promise<KeyRow[]> {
      const rows = await db.selectFrom('signingKeys').selectAll().orderBy('generation').execute();
      return rows.map(toKeyRow);
    },

    async insertKey(row: KeyRow): Promise<boolean> {
      const result = await db
        .insertInto('signingKeys')
        .values(row)
        .onConflict((oc) => oc.columns(['alg', 'generation']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async retireKeysBefore(alg: KeyAlg, generation: number, retiresAt: number): Promise<void> {
      await db
        .updateTable('signingKeys')
        .set({ retiresAt })
        .where('alg', '=', alg)
        .where('generation', '<', generation)
        .where('retiresAt', 'is', null)
        .execute();
    },

    async replacePrivateJwk(kid: string, expected: string, replacement: string): Promise<boolean> {
      const result = await db
        .updateTable('signingKeys')
        .set({ privateJwk: replacement })
        .where('kid', '=', kid)
        .where('privateJwk', '=', expected)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

function createSessionQueries(db: Kysely<IssuerDatabase>) {
  return {
    async createInteraction(row: Parameters<Store['createInteraction']>[0]): Promise<void> {
      await db.insertInto('interactions').values(row).execute();
    },

    findInteraction(idHash: string) {
      return db.selectFrom('interactions').selectAll().where('idHash', '=', idHash).executeTakeFirst();
    },

    async markInteractionSignedIn(idHash: string, at: number): Promise<void> {
      await db.updateTable('interactions').set({ signedInAt: at }).where('idHash', '=', idHash).execute();
    },

    async deleteInteraction(idHash: string): Promise<void> {
      await db.deleteFrom('interactions').where('idHash', '=', idHash).execute();
    },

    async createSession(row: Parameters<Store['createSession']>[0]): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },

    findSession(idHash: string) {
      return db.selectFrom('sessions').selectAll().where('idHash', '=', idHash).executeTakeFirst();
    },

    async renewSessionAuthTime(idHash: string, authTime: number): Promise<void> {
      await db.updateTable('sessions').set({ authTime }).where('idHash', '=', idHash).execute();
    },

    async endSession(idHash: string, at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('sessions')
          .set({ endedAt: at })
          .where('idHash', '=', idHash)
          .where('endedAt', 'is', null)
          .execute();
        await trx
          .updateTable('grants')
          .set({ revokedAt: at })
          .where('sessionIdHash', '=', idHash)
          .where('revokedAt', 'is', null)
          .execute();
      });
    },

    findConsent(customerId: string, clientId: string) {
      return db
        .selectFrom('consents')
        .selectAll()
        .where('customerId', '=', customerId)
        .where('clientId', '=', clientId)
        .executeTakeFirst();
    },

    async saveConsent(row: Parameters<Store['saveConsent']>[0]): Promise<void> {
      await db
        .insertInto('consents')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['customerId', 'clientId']).doUpdateSet({ scope: row.scope, createdAt: row.createdAt }),
        )
        .execute();
    },
  };
}

export function createAccountQueries(
  db: Kysely<IssuerDatabase>,
  runner: StatementRunner,
  dialect: Dialect,
): AccountQueries {
  return {
    ...createCustomerQueries(db, runner, dialect),
    ...createKeyQueries(db),
    ...createSessionQueries(db),
  };
}
