/**
 * The OpenID Connect UserInfo endpoint (Core §5.3), GET and POST, accepting the access
 * token only in the `Authorization: Bearer` header: spec 5.5 says never place a token in a
 * URL, so `access_token` in the query (or a form body) is refused. Errors follow RFC 6750
 * §3: no credentials → 401 with `WWW-Authenticate: Bearer realm=…` and no error code
 * (§3.1: the server "SHOULD NOT include an error code"), a bad token → 401
 * `invalid_token`, a token without `openid` → 403 `insufficient_scope`.
 */
import express, { type Request, type Response, Router } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { OAuthError } from '../errors.js';
import type { VerifiedAccessToken } from '../key-ring.js';
import { parseScope } from '../params.js';
import type { BearerContext } from '../store/rows.js';

function bearerChallenge(ctx: IssuerContext, error?: string, extra = ''): Record<string, string> {
  const realm = `Bearer realm="${ctx.config.issuer}"`;
  return { 'WWW-Authenticate': error ? `${realm}, error="${error}"${extra}` : realm };
}

function bearerError(
  ctx: IssuerContext,
  status: number,
  error: string,
  description: string,
  extra = '',
): OAuthError {
  return new OAuthError(status, error, description, { headers: bearerChallenge(ctx, error, extra) });
}

function hasFormToken(req: Request): boolean {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && 'access_token' in body;
}

interface Bearer {
  token: VerifiedAccessToken;
  customer: BearerContext['customer'];
}

/**
 * The signature first (no database work for a forged token), then the grant, the token's
 * own revocation and the customer in one query: on PostgreSQL that is one round trip
 * instead of three. A revoked grant or `jti` is RFC 6750 §3.1 `invalid_token`.
 */
async function verifyBearer(ctx: IssuerContext, token: string): Promise<Bearer> {
  const verified = await ctx.keys.verifyAccessToken(token).catch(() => undefined);
  if (!verified) throw bearerError(ctx, 401, 'invalid_token', 'the access token is invalid or expired');
  const context = await ctx.store.findBearerContext(verified.grantId, verified.jti);
  const revoked =
    !context ||
    context.grant.revokedAt !== null ||
    context.grant.expiresAt <= nowSeconds(ctx) ||
    context.accessTokenRevoked;
  if (revoked) throw bearerError(ctx, 401, 'invalid_token', 'the access token was revoked');
  // `sub` is the grant's customer; a mismatch means the account is not the one signed for.
  const customer = context.customer?.id === verified.sub ? context.customer : undefined;
  return { token: verified, customer };
}

async function handleUserinfo(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if ('access_token' in req.query || hasFormToken(req)) {
    throw bearerError(
      ctx,
      400,
      'invalid_request',
      'send the access token in the Authorization header, never in a URL or body',
    );
  }
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  if (!header || !/^bearer\b/i.test(header)) {
    throw new OAuthError(401, 'invalid_request', 'an access token is required', {
      headers: bearerChallenge(ctx),
      withoutBody: true,
    });
  }
  if (!match?.[1]) throw bearerError(ctx, 400, 'invalid_request', 'malformed Authorization header');
  const { token, customer } = await verifyBearer(ctx, match[1]);
  const scopes = parseScope(token.scope);
  if (!scopes.includes('openid')) {
    throw bearerError(ctx, 403, 'insufficient_scope', 'the openid scope is required', ', scope="openid"');
  }
  if (!customer) throw bearerError(ctx, 401, 'invalid_token', 'the account no longer exists');
  res.json({
    sub: customer.id,
    ...(scopes.includes('profile') ? { name: customer.name } : {}),
    // Verified once the customer followed a link mailed to the address.
    ...(scopes.includes('email') ? { email: customer.email, email_verified: customer.emailVerified } : {}),
  });
}

export function createUserinfoRouter(ctx: IssuerContext): Router {
  const router = Router();
  router.get('/oauth/userinfo', (req, res) => handleUserinfo(ctx, req, res));
  router.post('/oauth/userinfo', express.urlencoded({ extended: false, limit: '8kb' }), (req, res) =>
    handleUserinfo(ctx, req, res),
  );
  return router;
}
