/**
 * Request body limits. Compressed bodies are refused with 415. A declared `Content-Length` over the limit is refused with
 * `413 { error: "invalid_request" }` before a byte of the body is read; bodies sent without
 * a length (chunked) are bounded by the parsers, which stop reading at their own limit and
 * fail with the same 413. The limit is 16 KiB everywhere (an OAuth form is a few hundred
 * bytes), except registration, where a client with many redirect URIs may need 32 KiB.
 * The token and revocation forms are parsed here, ahead of the routes, so the rate limiter
 * can key on their `client_id`; a route's own parser then sees the body already read and
 * steps aside.
 */
import express, { type RequestHandler } from 'express';
import { OAuthError } from '../errors.js';

export const DEFAULT_BODY_LIMIT = 16 * 1024;
const BODY_LIMITS: ReadonlyMap<string, number> = new Map([['/oauth/clients/register', 32 * 1024]]);
/** Paths whose form bodies are parsed before the rate limiter (they may carry `client_id`). */
export const EARLY_FORM_PATHS: readonly string[] = ['/oauth/token', '/oauth/revoke'];
// RFC 6749 token requests have fewer than ten parameters; a hundred is generous.
const PARAMETER_LIMIT = 100;

export function bodyLimitFor(path: string): number {
  return BODY_LIMITS.get(path) ?? DEFAULT_BODY_LIMIT;
}

/**
 * Refuses a declared body larger than the endpoint's limit, and any compressed body: no
 * OAuth client compresses a form, and inflating one only invites zip bombs and decoder
 * errors (RFC 9110 §15.5.16: 415 for an unsupported content coding).
 */
export function createBodyGuard(): RequestHandler {
  return (req, res, next) => {
    const coding = req.headers['content-encoding']?.trim().toLowerCase();
    if (coding !== undefined && coding !== '' && coding !== 'identity') {
      res.setHeader('Connection', 'close');
      next(new OAuthError(415, 'invalid_request', 'compressed request bodies are not accepted'));
      return;
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(declared) && declared > bodyLimitFor(req.path)) {
      // The connection cannot be reused once the body is left unread.
      res.setHeader('Connection', 'close');
      next(new OAuthError(413, 'invalid_request', 'the request body is too large'));
      return;
    }
    next();
  };
}

/** Parses `application/x-www-form-urlencoded` bodies (exactly the RFC 6749 §3.2 format, no nesting). */
export function createEarlyFormParser(): RequestHandler {
  return express.urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT, parameterLimit: PARAMETER_LIMIT });
}
