/**
 * What the rest of the issuer may ask of the signing keys, apart from their implementation:
 * keys.ts (with key-sealing.ts, its encryption at rest) is the one module that imports jose (even its types), and route, cache and test
 * modules depend on these types without loading it. The clock every time-dependent part
 * takes lives here too (milliseconds, like `Date.now`; tests inject their own to move time).
 */
export type Clock = () => number;

/** The clock's reading in the Unix seconds the store and JWTs use (RFC 7519 §2 NumericDate). */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock() / 1000);
}

export interface AccessTokenClaims {
  sub: string;
  clientId: string;
  scope: string;
  authTime: number;
  jti: string;
  /** The grant the token belongs to, so revoking the grant also stops its access tokens here. */
  grantId: string;
  /** `aud` (RFC 8707 §2.2): the resources the token is for; one becomes a string claim. */
  audience: readonly string[];
}

export interface VerifiedAccessToken extends AccessTokenClaims {
  exp: number;
}

/** An ID token's own claims (OpenID Connect Core §2); the ring adds `iss`, `iat` and `exp`. */
export type IdTokenClaims = {
  sub: string;
  aud: string;
  auth_time: number;
  at_hash: string;
  nonce?: string;
  /** Standard claims of the granted scopes (OpenID Connect Core §5.1, §5.4): name, email, email_verified. */
  [claim: string]: unknown;
};

/** A public key as published in the JWKS (RFC 7517 §4), never holding private members. */
export type PublicJwk = Record<string, unknown>;

export interface KeyRing {
  signAccessToken(claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }>;
  signIdToken(claims: IdTokenClaims): Promise<string>;
  /** Throws when the token is not a valid, unexpired access token from this issuer. */
  verifyAccessToken(token: string): Promise<VerifiedAccessToken>;
  /**
   * Checks an `id_token_hint` (RP-Initiated Logout §2): our signature and issuer, expiry
   * tolerated up to `toleranceSeconds`; returns its audience (the client) and subject.
   */
  verifyIdTokenHint(token: string, toleranceSeconds: number): Promise<{ clientId: string; sub: string }>;
  /** The public JWKS (RFC 7517), published keys only. */
  publicJwks(): Promise<{ keys: PublicJwk[] }>;
  /** Forget cached rows so the next call re-reads the store. */
  reload(): void;
}
