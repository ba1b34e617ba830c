/**
 * The rows the issuer keeps, in its own terms (camelCase; Kysely's CamelCasePlugin maps
 * them to the snake_case columns), and the shapes its queries answer with. A leaf module:
 * the database interface (`schema.ts`), the query modules and the `Store` contract
 * (`store.ts`) all import these types and this module imports none of them, so the type
 * imports of `auth-server/store/` run one way. Times are Unix seconds; secrets are stored
 * as SHA-256 hashes, never in the clear.
 */

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
