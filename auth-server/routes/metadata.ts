/**
 * Discovery: RFC 8414 authorization server metadata and OpenID Connect Discovery, both
 * built by the shared pure module from the configured issuer (never from the Host header),
 * plus the /docs page the metadata's `service_documentation` points at. Each is serialised
 * once and sent with a strong ETag (conditional.ts).
 */
import { Router } from 'express';
import { sendJsonDocument, strongEtag } from '../conditional.js';
import type { IssuerContext } from '../context.js';
import {
  buildAuthorizationServerMetadata,
  buildOpenIdConfiguration,
  type IssuerMetadataInput,
} from '../metadata.js';

/** How long clients may cache either metadata document (static-documents.ts sends it too). */
export const METADATA_CACHE_CONTROL = 'public, max-age=300';

/**
 * What the metadata is built from: the configured issuer, and the merchant's site from the
 * catalog config (the site copies name the same agent guide, `{site_url}/auth.md`).
 */
export function metadataInputOf(ctx: IssuerContext): IssuerMetadataInput {
  const { siteUrl } = ctx.mail.merchant;
  return { issuer: ctx.config.issuer, ...(siteUrl === undefined ? {} : { siteUrl }) };
}

export function createMetadataRouter(ctx: IssuerContext): Router {
  const router = Router();
  const input = metadataInputOf(ctx);
  const prepared = (body: unknown) => {
    const text = JSON.stringify(body);
    return { text, etag: strongEtag(text), cacheControl: METADATA_CACHE_CONTROL };
  };
  const oauthMetadata = prepared(buildAuthorizationServerMetadata(input));
  const openIdConfiguration = prepared(buildOpenIdConfiguration(input));

  router.get('/.well-known/oauth-authorization-server', (req, res) => {
    sendJsonDocument(req, res, oauthMetadata);
  });
  router.get('/.well-known/openid-configuration', (req, res) => {
    sendJsonDocument(req, res, openIdConfiguration);
  });
  router.get('/docs', (_req, res) => {
    ctx.views.sendMessage(
      res,
      200,
      (merchant) => `How signing in to ${merchant} works`,
      'Clients register themselves at /oauth/clients/register and use the authorization code flow with PKCE (S256). ' +
        `Access tokens are ES256 JWTs (typ at+jwt), valid ${ctx.config.accessTokenTtl} seconds, for the resource named with the resource parameter (RFC 8707; one of ${ctx.config.resources.join(', ')}), else for ${ctx.config.accessTokenAudience}. ` +
        'A client_id may be the https URL of a Client ID Metadata Document. ' +
        'Refresh tokens are issued with offline_access, rotate on every use, and are bound to the sign-in session in which they were granted: ' +
        'when the customer signs out, every refresh token granted in that session stops working. ' +
        "This departs from OpenID Connect's usual meaning of offline_access (access while the customer is away) on purpose.",
    );
  });
  return router;
}
