/**
 * Minting the token response for a grant: an RFC 9068 access token, the refresh token the
 * caller stored for it (when the grant holds `offline_access` and the client may refresh),
 * and, on the code exchange, an OpenID Connect ID token when `openid` was granted (with
 * `nonce` from the authorization request, the original `auth_time` and `at_hash`, Core
 * §3.1.3.6). A refresh response carries no ID token: Core §12.2 says it "might not contain
 * an id_token", and leaving out the RS256 signature is most of a refresh's CPU.
 */
import { createHash } from 'node:crypto';
import type { IssuerContext } from './context.js';
import { nowSeconds } from './context.js';
import { parseScope } from './params.js';
import { generateId, generateSecret, hashSecret } from './secrets.js';
import type { ClientRow, GrantRow, RefreshTokenRow } from './store/rows.js';

/** `at_hash` (OpenID Connect Core §3.1.3.6): left half of SHA-256 of the access token, base64url. */
function computeAtHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

export interface NewRefreshToken {
  /** The value handed to the client once; only `row.tokenHash` is stored. */
  token: string;
  row: RefreshTokenRow;
}

export interface IssueInput {
  grant: GrantRow;
  client: ClientRow;
  /** The scope of this access token (the grant's, or a subset asked for on refresh). */
  scope: string;
  /** The access token's audience (RFC 8707 §2.2): the resources it is for, at least one. */
  audience: readonly string[];
  /** A refresh token already stored for this response. */
  refreshToken?: string | undefined;
  /** Set on the code exchange only: sign an ID token (when `openid` was granted) with this nonce. */
  idToken?: { nonce: string | null };
}

/** A fresh refresh token for the grant, or undefined when the grant or client does not allow one. */
export function newRefreshToken(
  ctx: IssuerContext,
  grant: GrantRow,
  client: ClientRow,
): NewRefreshToken | undefined {
  if (!parseScope(grant.scope).includes('offline_access') || !client.grantTypes.includes('refresh_token')) {
    return undefined;
  }
  const token = generateSecret();
  const now = nowSeconds(ctx);
  const row: RefreshTokenRow = {
    tokenHash: hashSecret(token),
    grantId: grant.id,
    clientId: client.clientId,
    createdAt: now,
    expiresAt: Math.min(now + ctx.config.refreshTokenTtl, grant.expiresAt),
    consumedAt: null,
  };
  return { token, row };
}

/**
 * The profile and email claims of an ID token (OpenID Connect Core §5.4), read once at code
 * exchange; `email_verified` is true once the customer followed a link mailed to the address.
 */
async function identityClaims(ctx: IssuerContext, grant: GrantRow): Promise<Record<string, unknown>> {
  const scopes = parseScope(grant.scope);
  if (!scopes.includes('email') && !scopes.includes('profile')) return {};
  const customer = await ctx.store.findCustomerById(grant.customerId);
  if (!customer) return {};
  return {
    ...(scopes.includes('profile') ? { name: customer.name } : {}),
    ...(scopes.includes('email')
      ? { email: customer.email, email_verified: (customer.emailVerifiedAt ?? null) !== null }
      : {}),
  };
}

export async function issueTokens(ctx: IssuerContext, input: IssueInput): Promise<TokenResponse> {
  const { grant, client, scope } = input;
  const access = await ctx.keys.signAccessToken({
    sub: grant.customerId,
    clientId: client.clientId,
    scope,
    authTime: grant.authTime,
    jti: generateId(),
    grantId: grant.id,
    audience: input.audience,
  });
  const response: TokenResponse = {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope,
  };
  if (input.refreshToken !== undefined) response.refresh_token = input.refreshToken;
  if (input.idToken && parseScope(grant.scope).includes('openid')) {
    response.id_token = await ctx.keys.signIdToken({
      sub: grant.customerId,
      aud: client.clientId,
      auth_time: grant.authTime,
      at_hash: computeAtHash(access.token),
      ...(input.idToken.nonce ? { nonce: input.idToken.nonce } : {}),
      ...(await identityClaims(ctx, grant)),
    });
  }
  return response;
}
