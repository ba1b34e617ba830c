/**
 * Verifying the issuer's access tokens where they are used: the MCP endpoint of the bundle
 * and any API of the merchant's own. RFC 9068 §4 lists what a resource server checks, and
 * this module checks all of it with jose: the `typ` header is `at+jwt`, the signature is
 * good under a key of the issuer's JWKS (fetched with `fetch` and cached by jose's
 * createRemoteJWKSet, re-fetched for an unknown `kid`), the algorithm is the one the issuer
 * signs with, `iss` is the issuer exactly, `aud` contains this resource exactly (RFC 8707:
 * a token minted for another resource is refused), and `exp` has not passed.
 *
 * Web-standard only (jose, `fetch`, no Node built-ins), so the same code runs at a CDN edge,
 * in Node and in a browser. It is stateless: a revoked token keeps verifying here until it
 * expires (ten minutes at most); only the issuer's userinfo checks revocation.
 */
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';

/** The algorithm the issuer signs access tokens with (its metadata module says so too). */
export const ACCESS_TOKEN_ALGORITHMS: readonly string[] = ['ES256'];
/** Seconds of clock difference tolerated on `exp`, `iat` and `nbf`. */
const DEFAULT_CLOCK_TOLERANCE = 5;

export interface AccessTokenVerifierOptions {
  /** The issuer identifier, exactly as its metadata gives it (`iss` must equal it). */
  issuer: string;
  /** This resource's identifier, exactly as clients send it in `resource` (`aud` must contain it). */
  resource: string;
  /** The issuer's JWKS; default `{issuer}/.well-known/jwks.json`. */
  jwksUri?: string;
  /** A key source to use instead of fetching the JWKS (tests, or a key set held locally). */
  keys?: JWTVerifyGetKey;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  clockToleranceSeconds?: number;
}

/** What a verified token says, in the terms a resource needs. */
export interface VerifiedAccessToken {
  /** The customer (`sub`). */
  subject: string;
  /** The app the customer approved (`client_id`, RFC 9068 §2.2). */
  clientId: string;
  /** The granted scopes (`scope`, space-separated in the token). */
  scopes: readonly string[];
  /** Every audience the token names; this resource is one of them. */
  audience: readonly string[];
  expiresAt: number;
  /** The whole payload, for claims this module does not name. */
  payload: JWTPayload;
}

/** The token is not one this resource may accept; `reason` is safe to send back. */
export class AccessTokenError extends Error {
  readonly code = 'invalid_token';
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'AccessTokenError';
  }
}

/**
 * The issuer's key set could not be fetched (unreachable, a timeout, not a 200 JSON answer):
 * nothing is known about the token, so a resource answers 503, not 401 (a 401 would send
 * the client through a new OAuth flow for a token that may be good).
 */
export class KeySetUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("the issuer's key set could not be fetched", options);
    this.name = 'KeySetUnavailableError';
  }
}

/** jose throws its generic error for a bad JWKS answer, JWKSTimeout for a slow one, and the fetch's own error when unreachable. */
function isKeySetFailure(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true;
  return error instanceof errors.JWKSTimeout || error.code === errors.JOSEError.code;
}

export type AccessTokenVerifier = (token: string) => Promise<VerifiedAccessToken>;

function stringClaim(payload: JWTPayload, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string' || value === '')
    throw new AccessTokenError(`the access token has no ${name}`);
  return value;
}

/** A verifier bound to one issuer and one resource; its JWKS is fetched once and cached. */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const jwksUri = options.jwksUri ?? `${options.issuer.replace(/\/+$/, '')}/.well-known/jwks.json`;
  const keys = options.keys ?? createRemoteJWKSet(new URL(jwksUri));
  const now = options.now ?? Date.now;
  const clockTolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE;
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        // RFC 9068 §4: the resource server "MUST verify that the typ header value is at+jwt".
        typ: 'at+jwt',
        issuer: options.issuer,
        audience: options.resource,
        algorithms: [...ACCESS_TOKEN_ALGORITHMS],
        requiredClaims: ['exp', 'iat', 'sub', 'client_id'],
        currentDate: new Date(now()),
        clockTolerance,
      }));
    } catch (error) {
      if (isKeySetFailure(error)) throw new KeySetUnavailableError({ cause: error });
      throw new AccessTokenError('the access token is invalid or expired', { cause: error });
    }
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    const audience = Array.isArray(payload.aud) ? payload.aud : [String(payload.aud)];
    return {
      subject: stringClaim(payload, 'sub'),
      clientId: stringClaim(payload, 'client_id'),
      scopes: scope.split(' ').filter((s) => s !== ''),
      audience,
      expiresAt: typeof payload.exp === 'number' ? payload.exp : 0,
      payload,
    };
  };
}

/** The scopes of `required` the token lacks (empty when it has them all). */
export function missingScopes(
  token: Pick<VerifiedAccessToken, 'scopes'>,
  required: readonly string[],
): string[] {
  return required.filter((scope) => !token.scopes.includes(scope));
}
