/**
 * The token endpoint (RFC 6749 §3.2, §4.1.3, §6). Authorization codes are single-use and
 * redeemed atomically in SQL; a replayed code is refused and revokes the grant it created
 * (RFC 6749 §4.1.2: the server "MUST deny the request and SHOULD revoke ... all tokens
 * previously issued based on that authorization code"). Refresh tokens rotate on every
 * use; presenting a rotated one revokes its whole family (the grant), and of concurrent
 * refreshes exactly one mints a successor (spent and replaced in one atomic store call). A
 * refresh answers without an ID token (OpenID Connect Core §12.2). Every response is `Cache-Control: no-store`
 * (RFC 6749 §5.1 "MUST").
 */
import express, { type Request, type Response, Router } from 'express';
import { type AuthenticatedClient, authenticateClient } from '../client-auth.js';
import { type IssuerContext, nowSeconds } from '../context.js';
import { invalidRequest, OAuthError } from '../errors.js';
import { ISSUER_CAPABILITIES } from '../metadata.js';
import { formatScope, isScopeSubset, parseScope, readUniqueParams } from '../params.js';
import { chooseAudience, grantedResources, readTokenResources } from '../resource-indicators.js';
import { computeS256Challenge, hashSecret, secretsEqual } from '../secrets.js';
import type { CodeRow, GrantRow } from '../store/rows.js';
import { issueTokens, newRefreshToken, type TokenResponse } from '../tokens.js';

// RFC 7636 §4.1: code_verifier = 43*128unreserved.
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function invalidGrant(description: string): OAuthError {
  return new OAuthError(400, 'invalid_grant', description);
}

function resourcesOf(ctx: IssuerContext, grant: GrantRow): string[] {
  return grantedResources(grant.resource, ctx.config.accessTokenAudience);
}

function usableGrant(grant: GrantRow | undefined, now: number): GrantRow {
  if (!grant || grant.revokedAt !== null || grant.expiresAt <= now) throw invalidGrant('the grant has ended');
  return grant;
}

/** What a redeemed code is bound to besides its client: its lifetime, redirect URI and PKCE challenge. */
function checkCodeBinding(
  row: CodeRow,
  request: { redirectUri: string; verifier: string; now: number },
): void {
  if (row.expiresAt <= request.now) throw invalidGrant('the authorization code has expired');
  // RFC 6749 §4.1.3: redirect_uri must be "identical" to the one in the authorization request.
  if (row.redirectUri !== request.redirectUri)
    throw invalidGrant('redirect_uri does not match the authorization request');
  // RFC 7636 §4.6: the server "MUST" compare BASE64URL(SHA256(code_verifier)) with the code_challenge.
  if (!secretsEqual(computeS256Challenge(request.verifier), row.codeChallenge)) {
    throw invalidGrant('code_verifier does not match the code_challenge');
  }
}

async function redeemCode(
  ctx: IssuerContext,
  req: Request,
  { client }: AuthenticatedClient,
): Promise<TokenResponse> {
  const {
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  } = readUniqueParams(req.body, ['code', 'redirect_uri', 'code_verifier']);
  if (!code || !redirectUri) throw invalidRequest('code and redirect_uri are required');
  if (!verifier || !CODE_VERIFIER.test(verifier))
    throw invalidRequest('a valid code_verifier is required (PKCE)');
  const requestedResources = readTokenResources(req.body, ctx.config.resources);
  const now = nowSeconds(ctx);
  const codeHash = hashSecret(code);
  const found = await ctx.store.findCode(codeHash);
  if (!found) throw invalidGrant('unknown authorization code');
  // Another client must not be able to burn (and so revoke) a code it was never given.
  if (found.clientId !== client.clientId) throw invalidGrant('the code was issued to another client');
  // The grant is read before the code is spent: a concurrent replay revokes it right after
  // our redemption, and that must not turn the one winner into a loser as well.
  const grant = usableGrant(await ctx.store.findGrant(found.grantId), now);
  // Checked before the code is spent, so asking for a resource outside the grant does not burn it.
  const audience = chooseAudience(requestedResources, resourcesOf(ctx, grant));
  const redemption = await ctx.store.redeemCode(codeHash, now);
  if (redemption.outcome !== 'redeemed') {
    await ctx.store.revokeGrant(found.grantId, now);
    ctx.logger.warn('authorization code replayed; grant revoked', { clientId: client.clientId });
    throw invalidGrant('the authorization code was already used');
  }
  const row = redemption.row;
  checkCodeBinding(row, { redirectUri, verifier, now });
  const refresh = newRefreshToken(ctx, grant, client);
  if (refresh) await ctx.store.createRefreshToken(refresh.row);
  return issueTokens(ctx, {
    grant,
    client,
    scope: grant.scope,
    audience,
    refreshToken: refresh?.token,
    idToken: { nonce: row.nonce },
  });
}

async function rotateRefreshToken(
  ctx: IssuerContext,
  req: Request,
  { client }: AuthenticatedClient,
): Promise<TokenResponse> {
  const { refresh_token: token, scope } = readUniqueParams(req.body, ['refresh_token', 'scope']);
  if (!token) throw invalidRequest('refresh_token is required');
  const requestedResources = readTokenResources(req.body, ctx.config.resources);
  const tokenHash = hashSecret(token);
  const now = nowSeconds(ctx);
  // The client binding never changes, so it is checked before the token is spent: another
  // client cannot burn (and so revoke) someone else's refresh token. The grant comes in the
  // same read, so it too is known before the token is spent.
  const found = await ctx.store.findRefreshTokenWithGrant(tokenHash);
  if (!found || found.token.clientId !== client.clientId) throw invalidGrant('unknown refresh token');
  if (found.token.expiresAt <= now) throw invalidGrant('the refresh token has expired');
  // Grant and scope are checked before the token is spent: a bad scope must not burn it, and
  // a concurrent reuse that revokes the family right after our redemption must not make the
  // one winner fail too (then no request would succeed).
  const grant = usableGrant(found.grant, now);
  const granted = parseScope(grant.scope);
  const requested = scope === undefined ? granted : parseScope(scope);
  // RFC 6749 §6: the scope "MUST NOT include any scope not originally granted".
  if (requested.length === 0 || !isScopeSubset(requested, granted)) {
    throw new OAuthError(400, 'invalid_scope', 'the scope exceeds what was granted');
  }
  // RFC 8707 §2.2: a refresh may ask for a token for fewer of the granted resources, never more.
  const audience = chooseAudience(requestedResources, resourcesOf(ctx, grant));
  const successor = newRefreshToken(ctx, grant, client);
  if (!(await ctx.store.rotateRefreshToken(tokenHash, now, successor?.row))) {
    await ctx.store.revokeGrant(grant.id, now);
    ctx.logger.warn('rotated refresh token reused; family revoked', { clientId: client.clientId });
    throw invalidGrant('the refresh token was already used');
  }
  // OpenID Connect Core §12.2: the refresh response "might not contain an id_token"; the
  // client keeps the one from the code exchange, and no RS256 signature is spent here.
  return issueTokens(ctx, {
    grant,
    client,
    scope: formatScope(requested),
    audience,
    refreshToken: successor?.token,
  });
}

async function handleToken(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if (!req.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('the request must be application/x-www-form-urlencoded');
  }
  const authenticated = await authenticateClient(ctx, req);
  const grantType = readUniqueParams(req.body, ['grant_type']).grant_type;
  if (!grantType) throw invalidRequest('grant_type is required');
  if (!(ISSUER_CAPABILITIES.grantTypes as readonly string[]).includes(grantType)) {
    throw new OAuthError(400, 'unsupported_grant_type', 'this grant type is not supported');
  }
  if (!authenticated.client.grantTypes.includes(grantType)) {
    throw new OAuthError(400, 'unauthorized_client', 'the client did not register this grant type');
  }
  const body =
    grantType === 'authorization_code'
      ? await redeemCode(ctx, req, authenticated)
      : await rotateRefreshToken(ctx, req, authenticated);
  res.status(200).json(body);
}

export function createTokenRouter(ctx: IssuerContext): Router {
  const router = Router();
  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    handleToken(ctx, req, res),
  );
  return router;
}
