/**
 * Minting the token response for a grant: an RFC 9068 access token, a refresh token when
 * the grant holds `offline_access` and the client may refresh, and an OpenID Connect ID
 * token when `openid` was granted (with `nonce` from the authorization request, the
 * original `auth_time` and `at_hash`, Core §3.1.3.6 and §12.2).
 */
import type { IssuerContext } from './context.js';
import { nowSeconds } from './context.js';
import { computeAtHash } from './keys.js';
import { parseScope } from './params.js';
import { generateId, generateSecret, hashSecret } from './secrets.js';
import type { ClientRow, GrantRow } from './store/store.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

export interface IssueInput {
  grant: GrantRow;
  client: ClientRow;
  /** The scope of this access token (the grant's, or a subset asked for on refresh). */
  scope: string;
  nonce?: string | null;
}

export async function issueTokens(ctx: IssuerContext, input: IssueInput): Promise<TokenResponse> {
  const { grant, client, scope } = input;
  const grantScopes = parseScope(grant.scope);
  const access = await ctx.keys.signAccessToken({
    sub: grant.customerId,
    clientId: client.clientId,
    scope,
    authTime: grant.authTime,
    jti: generateId(),
    grantId: grant.id,
  });
  const response: TokenResponse = {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope,
  };
  if (grantScopes.includes('offline_access') && client.grantTypes.includes('refresh_token')) {
    const refreshToken = generateSecret();
    const now = nowSeconds(ctx);
    await ctx.store.createRefreshToken({
      tokenHash: hashSecret(refreshToken),
      grantId: grant.id,
      clientId: client.clientId,
      createdAt: now,
      expiresAt: Math.min(now + ctx.config.refreshTokenTtl, grant.expiresAt),
      consumedAt: null,
    });
    response.refresh_token = refreshToken;
  }
  if (grantScopes.includes('openid')) {
    response.id_token = await ctx.keys.signIdToken({
      sub: grant.customerId,
      aud: client.clientId,
      auth_time: grant.authTime,
      at_hash: computeAtHash(access.token),
      ...(input.nonce ? { nonce: input.nonce } : {}),
    });
  }
  return response;
}
