/**
 * The JWKS (RFC 7517) of every published signing key, public parts only. A short
 * Cache-Control lets clients pick up a rotated key within `jwksMaxAge`, which is also how
 * long a new key is pre-published before it signs anything.
 */
import { Router } from 'express';
import type { IssuerConfig } from '../config.js';
import type { IssuerContext } from '../context.js';

/** How long clients may cache the JWKS (static-documents.ts sends it too). */
export function jwksCacheControl(config: Pick<IssuerConfig, 'jwksMaxAge'>): string {
  return `public, max-age=${config.jwksMaxAge}`;
}

export function createJwksRouter(ctx: IssuerContext): Router {
  const router = Router();
  router.get('/.well-known/jwks.json', async (_req, res) => {
    const jwks = await ctx.keys.publicJwks();
    res.set('Cache-Control', jwksCacheControl(ctx.config)).json(jwks);
  });
  return router;
}
