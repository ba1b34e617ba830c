/**
 * CORS for browser-based public clients (RFC 8252's browser cousin, the SPA of
 * draft-ietf-oauth-browser-based-apps §6): the token, revocation and userinfo endpoints, the
 * JWKS and the two metadata documents answer any origin with `Access-Control-Allow-Origin: *`
 * and never with credentials, since none of them rely on cookies (client authentication and
 * bearer tokens travel in the request itself). Preflights are answered here with 204 before
 * any rate limit or route runs. The HTML pages (authorize, sign-in, consent, account) get no
 * CORS headers at all: they are for top-level navigation, never for another origin's script.
 */
import type { RequestHandler } from 'express';
import type { HeaderEntry } from './security-headers.js';

const CORS_METHODS: ReadonlyMap<string, string> = new Map([
  ['/oauth/token', 'POST'],
  ['/oauth/revoke', 'POST'],
  ['/oauth/userinfo', 'GET, POST'],
  ['/.well-known/jwks.json', 'GET'],
  ['/.well-known/oauth-authorization-server', 'GET'],
  ['/.well-known/openid-configuration', 'GET'],
]);

const ALLOWED_HEADERS = 'Authorization, Content-Type, DPoP, X-Request-Id';
// Headers a script needs to react properly: the error scheme, the rate limit, the request id.
const EXPOSED_HEADERS = 'WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id';
const PREFLIGHT_MAX_AGE = 600;

/**
 * The CORS headers of an ordinary (not preflight) response of a CORS endpoint, in the order
 * they are set; Cross-Origin-Resource-Policy replaces the security headers' same-origin.
 */
export const CORS_RESPONSE_HEADERS: readonly HeaderEntry[] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
];

/** True when `path` is one of the endpoints that browsers may call from another origin. */
export function isCorsPath(path: string): boolean {
  return CORS_METHODS.has(path);
}

export function createCorsMiddleware(): RequestHandler {
  return (req, res, next) => {
    const methods = CORS_METHODS.get(req.path);
    if (methods === undefined) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE));
      res.status(204).end();
      return;
    }
    for (const [name, value] of CORS_RESPONSE_HEADERS) res.setHeader(name, value);
    next();
  };
}
