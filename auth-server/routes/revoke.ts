/**
 * Token revocation (RFC 7009). The client authenticates as at the token endpoint. A
 * refresh token ends its whole family (the grant, so also that grant's access tokens at
 * our userinfo); an access token is put on the deny-list until it expires. RFC 7009 §2.2:
 * "invalid tokens do not cause an error response", so unknown tokens get 200 too. A token
 * issued to another client is refused with `invalid_grant` (RFC 7009 §2.1).
 */
import express, { type Request, type Response, Router } from 'express';
import { authenticateClient } from '../client-auth.js';
import { type IssuerContext, nowSeconds } from '../context.js';
import { invalidRequest, OAuthError } from '../errors.js';
import { readUniqueParams } from '../params.js';
import { hashSecret } from '../secrets.js';

function otherClient(): OAuthError {
  return new OAuthError(400, 'invalid_grant', 'the token was issued to another client');
}

async function handleRevoke(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if (!req.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('the request must be application/x-www-form-urlencoded');
  }
  const { client } = await authenticateClient(ctx, req);
  const { token } = readUniqueParams(req.body, ['token', 'token_type_hint']);
  if (!token) throw invalidRequest('token is required');
  const now = nowSeconds(ctx);
  // The hint only orders the look-ups (RFC 7009 §2.1); both kinds are always tried.
  const refresh = await ctx.store.findRefreshToken(hashSecret(token));
  if (refresh) {
    if (refresh.clientId !== client.clientId) throw otherClient();
    await ctx.store.revokeGrant(refresh.grantId, now);
    ctx.logger.info('refresh token family revoked', { clientId: client.clientId });
  } else {
    const access = await ctx.keys.verifyAccessToken(token).catch(() => undefined);
    if (access) {
      if (access.clientId !== client.clientId) throw otherClient();
      await ctx.store.revokeAccessToken(access.jti, access.exp);
      ctx.logger.info('access token revoked', { clientId: client.clientId });
    }
  }
  res.status(200).end();
}

export function createRevokeRouter(ctx: IssuerContext): Router {
  const router = Router();
  router.post('/oauth/revoke', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    handleRevoke(ctx, req, res),
  );
  return router;
}
