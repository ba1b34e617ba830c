/**
 * The Store implemented once with Kysely for SQLite and PostgreSQL. Only portable SQL is
 * used; single-use redemptions are one conditional UPDATE plus its affected-row count
 * (never check-then-set), so two processes on one database cannot both win. Migrations run
 * under Kysely's migration lock (a PostgreSQL advisory lock); on SQLite a second process
 * that loses the race to the write lock simply retries and finds the work done.
 */
import { type Kysely, Migrator, sql } from 'kysely';
import { type CounterStore, createCounterStore } from './counters.js';
import { issuerMigrations } from './migrations.js';
import type { ClientsTable, IssuerDatabase, SigningKeysTable } from './schema.js';
import type {
  CleanupCounts,
  ClientRow,
  CodeRow,
  ConsentRow,
  CustomerRow,
  GrantRow,
  InteractionRow,
  KeyAlg,
  KeyRow,
  Redemption,
  RefreshTokenRow,
  SessionRow,
  Store,
} from './store.js';

const MIGRATE_ATTEMPTS = 5;
// Consumed codes are kept a day past expiry so a late replay is still recognised as one.
const CODE_RETENTION = 24 * 3600;
const ENDED_RETENTION = 24 * 3600;

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

function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

export class KyselyStore implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly counters: CounterStore;
  readonly #db: Kysely<IssuerDatabase>;
  readonly #migrationSchema: string | undefined;

  constructor(
    db: Kysely<IssuerDatabase>,
    dialect: 'sqlite' | 'postgres',
    migrationSchema: string | undefined,
  ) {
    this.#db = db;
    this.dialect = dialect;
    this.counters = createCounterStore(db);
    this.#migrationSchema = migrationSchema;
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({
      db: this.#db.withoutPlugins(),
      provider: issuerMigrations,
      ...(this.#migrationSchema ? { migrationTableSchema: this.#migrationSchema } : {}),
    });
    let lastError: unknown;
    for (let attempt = 1; attempt <= MIGRATE_ATTEMPTS; attempt++) {
      const { error } = await migrator.migrateToLatest();
      if (error === undefined) return;
      lastError = error;
      await delay(50 * attempt + Math.floor(Math.random() * 50));
    }
    throw new Error('database migration failed', { cause: lastError });
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.#db);
  }

  async createCustomer(row: CustomerRow): Promise<boolean> {
    try {
      await this.#db.insertInto('customers').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  findCustomerByEmail(email: string): Promise<CustomerRow | undefined> {
    return this.#db.selectFrom('customers').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findCustomerById(id: string): Promise<CustomerRow | undefined> {
    return this.#db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createClient(row: ClientRow): Promise<void> {
    await this.#db
      .insertInto('clients')
      .values({
        ...row,
        redirectUris: JSON.stringify(row.redirectUris),
        postLogoutRedirectUris: JSON.stringify(row.postLogoutRedirectUris),
        grantTypes: JSON.stringify(row.grantTypes),
        metadata: JSON.stringify(row.metadata),
        lastUsedAt: null,
      })
      .execute();
  }

  async findClient(clientId: string): Promise<ClientRow | undefined> {
    const row = await this.#db
      .selectFrom('clients')
      .selectAll()
      .where('clientId', '=', clientId)
      .executeTakeFirst();
    return row ? toClientRow(row) : undefined;
  }

  async findClients(clientIds: readonly string[]): Promise<ClientRow[]> {
    if (clientIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom('clients')
      .selectAll()
      .where('clientId', 'in', clientIds)
      .execute();
    return rows.map(toClientRow);
  }

  async listKeys(): Promise<KeyRow[]> {
    const rows = await this.#db.selectFrom('signingKeys').selectAll().orderBy('generation').execute();
    return rows.map(toKeyRow);
  }

  async insertKey(row: KeyRow): Promise<boolean> {
    const result = await this.#db
      .insertInto('signingKeys')
      .values(row)
      .onConflict((oc) => oc.columns(['alg', 'generation']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async retireKeysBefore(alg: KeyAlg, generation: number, retiresAt: number): Promise<void> {
    await this.#db
      .updateTable('signingKeys')
      .set({ retiresAt })
      .where('alg', '=', alg)
      .where('generation', '<', generation)
      .where('retiresAt', 'is', null)
      .execute();
  }

  async createInteraction(row: InteractionRow): Promise<void> {
    await this.#db.insertInto('interactions').values(row).execute();
  }

  findInteraction(idHash: string): Promise<InteractionRow | undefined> {
    return this.#db.selectFrom('interactions').selectAll().where('idHash', '=', idHash).executeTakeFirst();
  }

  async markInteractionSignedIn(idHash: string, at: number): Promise<void> {
    await this.#db.updateTable('interactions').set({ signedInAt: at }).where('idHash', '=', idHash).execute();
  }

  async deleteInteraction(idHash: string): Promise<void> {
    await this.#db.deleteFrom('interactions').where('idHash', '=', idHash).execute();
  }

  async createSession(row: SessionRow): Promise<void> {
    await this.#db.insertInto('sessions').values(row).execute();
  }

  findSession(idHash: string): Promise<SessionRow | undefined> {
    return this.#db.selectFrom('sessions').selectAll().where('idHash', '=', idHash).executeTakeFirst();
  }

  async renewSessionAuthTime(idHash: string, authTime: number): Promise<void> {
    await this.#db.updateTable('sessions').set({ authTime }).where('idHash', '=', idHash).execute();
  }

  async endSession(idHash: string, at: number): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
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
  }

  findConsent(customerId: string, clientId: string): Promise<ConsentRow | undefined> {
    return this.#db
      .selectFrom('consents')
      .selectAll()
      .where('customerId', '=', customerId)
      .where('clientId', '=', clientId)
      .executeTakeFirst();
  }

  async saveConsent(row: ConsentRow): Promise<void> {
    await this.#db
      .insertInto('consents')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['customerId', 'clientId']).doUpdateSet({ scope: row.scope, createdAt: row.createdAt }),
      )
      .execute();
  }

  async createGrant(row: GrantRow): Promise<void> {
    await this.#db.insertInto('grants').values(row).execute();
  }

  findGrant(id: string): Promise<GrantRow | undefined> {
    return this.#db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async revokeGrant(id: string, at: number): Promise<void> {
    await this.#db
      .updateTable('grants')
      .set({ revokedAt: at })
      .where('id', '=', id)
      .where('revokedAt', 'is', null)
      .execute();
  }

  async revokeClientAccess(customerId: string, clientId: string, at: number): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
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
  }

  listActiveGrants(customerId: string, now: number): Promise<GrantRow[]> {
    return this.#db
      .selectFrom('grants')
      .selectAll()
      .where('customerId', '=', customerId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('createdAt')
      .execute();
  }

  async createCode(row: CodeRow): Promise<void> {
    await this.#db.insertInto('codes').values(row).execute();
  }

  async redeemCode(codeHash: string, at: number): Promise<Redemption<CodeRow>> {
    const result = await this.#db
      .updateTable('codes')
      .set({ consumedAt: at })
      .where('codeHash', '=', codeHash)
      .where('consumedAt', 'is', null)
      .executeTakeFirst();
    const row = await this.findCode(codeHash);
    if (!row) return { outcome: 'unknown' };
    return { outcome: Number(result.numUpdatedRows) === 1 ? 'redeemed' : 'already-used', row };
  }

  findCode(codeHash: string): Promise<CodeRow | undefined> {
    return this.#db.selectFrom('codes').selectAll().where('codeHash', '=', codeHash).executeTakeFirst();
  }

  async createRefreshToken(row: RefreshTokenRow): Promise<void> {
    await this.#db.insertInto('refreshTokens').values(row).execute();
  }

  async redeemRefreshToken(tokenHash: string, at: number): Promise<Redemption<RefreshTokenRow>> {
    const result = await this.#db
      .updateTable('refreshTokens')
      .set({ consumedAt: at })
      .where('tokenHash', '=', tokenHash)
      .where('consumedAt', 'is', null)
      .executeTakeFirst();
    const row = await this.findRefreshToken(tokenHash);
    if (!row) return { outcome: 'unknown' };
    return { outcome: Number(result.numUpdatedRows) === 1 ? 'redeemed' : 'already-used', row };
  }

  findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    return this.#db
      .selectFrom('refreshTokens')
      .selectAll()
      .where('tokenHash', '=', tokenHash)
      .executeTakeFirst();
  }

  async revokeAccessToken(jti: string, expiresAt: number): Promise<void> {
    await this.#db
      .insertInto('revokedAccessTokens')
      .values({ jti, expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }

  async isAccessTokenRevoked(jti: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('revokedAccessTokens')
      .select('jti')
      .where('jti', '=', jti)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteExpired(now: number): Promise<CleanupCounts> {
    const db = this.#db;
    const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
    return {
      codes: count(
        await db
          .deleteFrom('codes')
          .where('expiresAt', '<', now - CODE_RETENTION)
          .executeTakeFirst(),
      ),
      refreshTokens: count(
        await db.deleteFrom('refreshTokens').where('expiresAt', '<', now).executeTakeFirst(),
      ),
      sessions: count(
        await db
          .deleteFrom('sessions')
          .where((eb) => eb.or([eb('expiresAt', '<', now), eb('endedAt', '<', now - ENDED_RETENTION)]))
          .executeTakeFirst(),
      ),
      interactions: count(
        await db.deleteFrom('interactions').where('expiresAt', '<', now).executeTakeFirst(),
      ),
      grants: count(
        await db
          .deleteFrom('grants')
          .where((eb) => eb.or([eb('expiresAt', '<', now), eb('revokedAt', '<', now - ENDED_RETENTION)]))
          .executeTakeFirst(),
      ),
      revokedAccessTokens: count(
        await db.deleteFrom('revokedAccessTokens').where('expiresAt', '<', now).executeTakeFirst(),
      ),
      keys: count(await db.deleteFrom('signingKeys').where('retiresAt', '<', now).executeTakeFirst()),
    };
  }
}
