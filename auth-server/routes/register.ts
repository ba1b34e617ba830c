/**
 * Dynamic client registration (RFC 7591), self-service and without approval. Confidential
 * clients get a server-generated 256-bit secret, returned once and stored only as its
 * SHA-256. Success is `201` with every registered value echoed (defaults included),
 * `client_id_issued_at`, and `client_secret_expires_at: 0` (never) whenever a secret is
 * issued. The response holds a secret, so it is `no-store`.
 */
import express, { Router } from 'express';
import { ClientMetadataError, validateClientMetadata } from '../client-metadata.js';
import { type IssuerContext, nowSeconds } from '../context.js';
import { OAuthError } from '../errors.js';
import { generateId, generateSecret, hashSecret } from '../secrets.js';

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string')
    throw new ClientMetadataError('invalid_client_metadata', 'the request body is empty');
  try {
    return JSON.parse(body);
  } catch {
    throw new ClientMetadataError('invalid_client_metadata', 'the request body is not valid JSON');
  }
}

export function createRegisterRouter(ctx: IssuerContext): Router {
  const router = Router();
  // Read as text and parse here, so malformed JSON is reported in RFC 7591 terms.
  router.post(
    '/oauth/clients/register',
    express.text({ limit: '32kb', type: () => true }),
    async (req, res) => {
      if (!req.is('application/json')) {
        throw new OAuthError(
          400,
          'invalid_client_metadata',
          'the request must be application/json (RFC 7591 §3.1)',
        );
      }
      let metadata: ReturnType<typeof validateClientMetadata>;
      try {
        metadata = validateClientMetadata(parseJson(req.body));
      } catch (error) {
        if (error instanceof ClientMetadataError)
          throw new OAuthError(400, error.error, error.message, { cause: error });
        throw error;
      }
      const clientId = generateId();
      const secret = metadata.tokenEndpointAuthMethod === 'none' ? undefined : generateSecret();
      const issuedAt = nowSeconds(ctx);
      await ctx.store.createClient({
        clientId,
        secretHash: secret ? hashSecret(secret) : null,
        tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
        redirectUris: metadata.redirectUris,
        postLogoutRedirectUris: metadata.postLogoutRedirectUris,
        grantTypes: metadata.grantTypes,
        scope: metadata.scope,
        clientName: metadata.clientName,
        metadata: metadata.echo,
        createdAt: issuedAt,
      });
      ctx.logger.info('client registered', { clientId, method: metadata.tokenEndpointAuthMethod });
      res
        .status(201)
        .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
        .json({
          client_id: clientId,
          client_id_issued_at: issuedAt,
          ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
          ...metadata.echo,
        });
    },
  );
  return router;
}
