/**
 * An example, quoted in docs/issuer.md ("Verifying these tokens in your own service") and
 * run by test/access-token/orders-api.test.ts: a merchant's own API that accepts the
 * issuer's access tokens. Its resource identifier must be one of the issuer's `--resource`
 * values, and clients ask for tokens with `resource=<that identifier>`.
 */
import { authenticateBearer } from '../bearer-challenge.js';
import { protectedResourceMetadataUrlOf } from '../resource-urls.js';
import { createAccessTokenVerifier } from '../verify-access-token.js';

export function createOrdersApi(options: { issuer: string; resource: string }) {
  // One verifier per process: it fetches the issuer's JWKS once and caches it.
  const verify = createAccessTokenVerifier({ issuer: options.issuer, resource: options.resource });
  const guard = {
    verify,
    resourceMetadataUrl: protectedResourceMetadataUrlOf(options.resource),
    scopes: ['openid'],
  };
  return async function handle(request: Request): Promise<Response> {
    const auth = await authenticateBearer(request, guard);
    if (!auth.ok) return auth.response; // 401 or 403 with WWW-Authenticate, ready to send
    return Response.json({ customer: auth.claims.subject, app: auth.claims.clientId, orders: [] });
  };
}
