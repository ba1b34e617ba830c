/**
 * The storage contract of the issuer: the rows it keeps and the operations on them, in
 * the issuer's own terms. One Kysely implementation serves both SQLite and PostgreSQL
 * (`kysely-store.ts`, composed of `account-queries.ts` and `grant-queries.ts`). Every operation that must be single-use (code redemption, refresh
 * rotation) is one conditional UPDATE whose affected-row count decides the outcome, so it
 * stays correct when several processes share one database. Times are Unix seconds;
 * secrets (session ids, codes, refresh tokens, client secrets) are stored as SHA-256
 * hashes and never in the clear.
 */

import type { CounterStore } from './counters.js';
import type { EmailLinkStore } from './email-link-queries.js';
import type { SignupStore } from './signup-queries.js';

export interface CustomerRow {
  id: string;
  email: string;
  name: string;
  /** Empty until the customer chose a password (an invited or signed-up account). */
  passwordHash: string;
  createdAt: number;
  /** When a mailed link was first followed (the address is then verified); null before. */
  emailVerifiedAt?: number | null;
}

export interface ClientRow {
  clientId: string;
  /** SHA-256 (base64url) of the secret; null for public clients. */
  secretHash: string | null;
  tokenEndpointAuthMethod: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  /** Space-separated scopes the client may ask for; null = any supported scope. */
  scope: string | null;
  clientName: string | null;
  /** Every registered metadata value, as echoed by registration (RFC 7591 §3.2.1). */
  metadata: Record<string, unknown>;
  createdAt: number;
}

export type KeyAlg = 'ES256' | 'RS256';

export interface KeyRow {
  kid: string;
  alg: KeyAlg;
  /** Which rotation this key belongs to; (alg, generation) is unique, so racing creators agree. */
  generation: number;
  privateJwk: string;
  publicJwk: string;
  createdAt: number;
  /** Signing starts here (pre-publication before it). */
  activatesAt: number;
  /** Published until here; null while it is the newest key. */
  retiresAt: number | null;
}

export interface InteractionRow {
  idHash: string;
  /** SHA-256 of the browser's CSRF cookie: only the browser that started it may finish it. */
  browserHash: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  prompt: string | null;
  maxAge: number | null;
  /** RFC 8707 resources asked for, space-separated (a URI holds no space); null when none was named. */
  resource: string | null;
  /** Set when the customer signed in during this interaction (prompt=login, max_age). */
  signedInAt: number | null;
  createdAt: number;
  expiresAt: number;
}

export interface SessionRow {
  idHash: string;
  customerId: string;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

export interface GrantRow {
  id: string;
  clientId: string;
  customerId: string;
  sessionIdHash: string;
  scope: string;
  /** RFC 8707 resources granted, space-separated; null: the default audience only. */
  resource: string | null;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface CodeRow {
  codeHash: string;
  grantId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export interface RefreshTokenRow {
  tokenHash: string;
  grantId: string;
  clientId: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export interface ConsentRow {
  customerId: string;
  clientId: string;
  scope: string;
  createdAt: number;
}

/** A refresh token and its grant, read together; `grant` is undefined once it was cleaned up. */
export interface RefreshTokenWithGrant {
  token: RefreshTokenRow;
  grant: GrantRow | undefined;
}

/** What userinfo checks after verifying an access token's signature, read in one query. */
export interface BearerContext {
  grant: Pick<GrantRow, 'customerId' | 'expiresAt' | 'revokedAt'>;
  /** Whether the token's `jti` was revoked on its own (RFC 7009). */
  accessTokenRevoked: boolean;
  /** The grant's customer; undefined when the account no longer exists. */
  customer: (Pick<CustomerRow, 'id' | 'email' | 'name'> & { emailVerified: boolean }) | undefined;
}

/** The outcome of a single-use redemption. */
export type Redemption<T> =
  | { outcome: 'redeemed'; row: T }
  | { outcome: 'already-used'; row: T }
  | { outcome: 'unknown' };

export interface CleanupCounts {
  codes: number;
  refreshTokens: number;
  sessions: number;
  interactions: number;
  grants: number;
  revokedAccessTokens: number;
  keys: number;
  /** Pending sign-ups whose link expired (signup-queries.ts). */
  signups: number;
}

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
