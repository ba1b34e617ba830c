/**
 * The storage contract of the issuer: the operations on the rows it keeps (the row types
 * are in `rows.ts`, which every module of this folder reads and which reads none of them,
 * so the folder's imports run one way). One Kysely implementation serves both SQLite and
 * PostgreSQL (`kysely-store.ts`, composed of `account-queries.ts` and `grant-queries.ts`).
 * Every operation that must be single-use (code redemption, refresh rotation) is one
 * conditional UPDATE whose affected-row count decides the outcome, so it stays correct
 * when several processes share one database. Times are Unix seconds; secrets (session
 * ids, codes, refresh tokens, client secrets) are stored as SHA-256 hashes and never in
 * the clear.
 */

import type { CounterStore } from './counters.js';
import type { EmailLinkStore } from './email-link-queries.js';
import type {
  BearerContext,
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
  RefreshTokenWithGrant,
  SessionRow,
} from './rows.js';
import type { SignupStore } from './signup-queries.js';

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Rate-limit and sign-in counters, client use and reaping (counters.ts). */
  readonly counters: CounterStore;
  /** Mailed links, password changes and account deletion (email-link-queries.ts). */
  readonly emailLinks: EmailLinkStore;
  /** Sign-ups waiting for their link to be followed (signup-queries.ts). */
  readonly signups: SignupStore;
  /** Brings the schema up to date; safe when several processes call it at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Cheap round trip (health checks). */
  ping(): Promise<void>;

  /** Returns false when the email is taken. */
  createCustomer(row: CustomerRow): Promise<boolean>;
  findCustomerByEmail(email: string): Promise<CustomerRow | undefined>;
  findCustomerById(id: string): Promise<CustomerRow | undefined>;

  createClient(row: ClientRow): Promise<void>;
  /** Inserts or replaces a client (a Client ID Metadata Document, re-read when its cache ends). */
  saveClient(row: ClientRow): Promise<void>;
  findClient(clientId: string): Promise<ClientRow | undefined>;
  findClients(clientIds: readonly string[]): Promise<ClientRow[]>;

  listKeys(): Promise<KeyRow[]>;
  /** Inserts unless (alg, generation) exists; true when this call inserted it. */
  insertKey(row: KeyRow): Promise<boolean>;
  /** Sets retires_at on every older key of `alg` that has none yet. */
  retireKeysBefore(alg: KeyAlg, generation: number, retiresAt: number): Promise<void>;
  /**
   * Replaces a key's stored private JWK (sealing it, or re-sealing it under a new
   * key-encryption key) only if it still holds `expected`; false when another process won.
   */
  replacePrivateJwk(kid: string, expected: string, replacement: string): Promise<boolean>;

  createInteraction(row: InteractionRow): Promise<void>;
  findInteraction(idHash: string): Promise<InteractionRow | undefined>;
  markInteractionSignedIn(idHash: string, at: number): Promise<void>;
  deleteInteraction(idHash: string): Promise<void>;

  createSession(row: SessionRow): Promise<void>;
  findSession(idHash: string): Promise<SessionRow | undefined>;
  /** Records a fresh sign-in (prompt=login, max_age) on a live session. */
  renewSessionAuthTime(idHash: string, authTime: number): Promise<void>;
  /** Ends the session and revokes every grant made in it (spec 5.5: sign-out invalidates refresh tokens). */
  endSession(idHash: string, at: number): Promise<void>;

  findConsent(customerId: string, clientId: string): Promise<ConsentRow | undefined>;
  saveConsent(row: ConsentRow): Promise<void>;

  createGrant(row: GrantRow): Promise<void>;
  findGrant(id: string): Promise<GrantRow | undefined>;
  revokeGrant(id: string, at: number): Promise<void>;
  /** The account page's `Revoke`: every grant and the remembered consent of one client. */
  revokeClientAccess(customerId: string, clientId: string, at: number): Promise<void>;
  listActiveGrants(customerId: string, now: number): Promise<GrantRow[]>;

  createCode(row: CodeRow): Promise<void>;
  /** `UPDATE codes SET consumed_at = ? WHERE code_hash = ? AND consumed_at IS NULL` + row count. */
  redeemCode(codeHash: string, at: number): Promise<Redemption<CodeRow>>;
  findCode(codeHash: string): Promise<CodeRow | undefined>;

  createRefreshToken(row: RefreshTokenRow): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined>;
  /** The token with its grant in one read, so the grant is known before the token is spent. */
  findRefreshTokenWithGrant(tokenHash: string): Promise<RefreshTokenWithGrant | undefined>;
  /**
   * Spends the token (`UPDATE … SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS
   * NULL` + row count, the same single-use pattern as codes) and stores `successor` so that
   * it survives only if this call spent the token. True for exactly one of any concurrent callers.
   */
  rotateRefreshToken(tokenHash: string, at: number, successor: RefreshTokenRow | undefined): Promise<boolean>;

  revokeAccessToken(jti: string, expiresAt: number): Promise<void>;
  isAccessTokenRevoked(jti: string): Promise<boolean>;
  /** Userinfo's grant, `jti` revocation and customer checks as one query; undefined without the grant. */
  findBearerContext(grantId: string, jti: string): Promise<BearerContext | undefined>;

  /** Deletes what has expired (and retired keys) as of `now`. */
  deleteExpired(now: number): Promise<CleanupCounts>;
}
