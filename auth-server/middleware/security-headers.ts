/**
 * Protective headers on every response, set before any route runs so that even a 404, a
 * 413 or a 429 carries them: `nosniff`, `Referrer-Policy: no-referrer` (codes and states
 * must never leak in a Referer, RFC 6749 §10.6 and RFC 9700 §4.2.4), no framing, and a CSP
 * that lets a non-HTML response load nothing at all. The HTML pages replace that CSP with
 * their own (views.ts: the page's style hash, its form targets, `frame-ancestors 'none'`).
 * HSTS (RFC 6797) is sent only when the issuer identifier is https: on plain http a browser
 * ignores it, and on a loopback development issuer it would only get in the way.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

const HSTS_MAX_AGE = 365 * 24 * 3600;

export function createSecurityHeadersMiddleware(issuer: string): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: issuer.startsWith('https:')
      ? { maxAge: HSTS_MAX_AGE, includeSubDomains: false }
      : false,
    // The CORS middleware relaxes this to cross-origin on the endpoints browsers may call.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
