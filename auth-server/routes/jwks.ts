/**
 * The JWKS (RFC 7517) of every published signing key, public parts only. A short
 * Cache-Control lets clients pick up a rotated key within `jwksMaxAge`, which is also how
 * long a new key is pre-published before it signs anything. A strong ETag lets a client
 * revalidate it for a bodiless 304 (conditional.ts).
 */
import { Router } from 'express';
import { sendJsonDocument, strongEtag } from '../conditional.js';
import type { IssuerConfig } from '../config.js';
import type { IssuerContext } from '../context.js';

/** How long clients may cache the JWKS (static-documents.ts sends it too). */
export function jwksCacheControl(config: Pick<IssuerConfig, 'jwksMaxAge'>): string {
  return `public, max-age=${config.jwksMaxAge}`;
}

export function createJwksRouter(ctx: IssuerContext): Router {
  const router = Router();
  const cacheControl = jwksCacheControl(ctx.config);
  router.get('/.well-known/jwks.json', async (req, res) => {
    const text = JSON.stringify(await ctx.keys.publicJwks());
    sendJsonDocument(req, res, { text, etag: strongEtag(text), cacheControl });
  });
  return router;
}
