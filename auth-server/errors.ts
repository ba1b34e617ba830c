/**
 * The one error type of the issuer and the one middleware that turns errors into the wire
 * format. Handlers throw `OAuthError` (status, RFC 6749 §5.2 / RFC 6750 §3.1 error code,
 * description, optional headers); `@hapi/boom` errors (404, 405, 413…) are mapped too, and
 * so is the store's conflict (two changes to one account at once: 409);
 * anything else becomes `500 server_error` without details, logged with its stack.
 * Errors raised before the redirect URI is known to be safe are rendered as an HTML page
 * instead (`render: 'page'`), because RFC 6749 §4.1.2.1 forbids redirecting then.
 */
import { isBoom } from '@hapi/boom';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from './logger.js';
import { StoreConflictError } from './store/conflicts.js';

export interface OAuthErrorOptions {
  headers?: Readonly<Record<string, string>>;
  /**
   * 'page' renders the HTML error page (browser-facing endpoints); default JSON. 'auto'
   * lets the error middleware choose by the request's path (for checks shared by both kinds).
   */
  render?: 'json' | 'page' | 'auto';
  /** RFC 6750 §3.1: a request without credentials gets no error information at all. */
  withoutBody?: boolean;
  cause?: unknown;
}

export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly render: 'json' | 'page' | 'auto';
  readonly withoutBody: boolean;

  constructor(status: number, error: string, description: string, options: OAuthErrorOptions = {}) {
    super(description, { cause: options.cause });
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = options.headers ?? {};
    this.render = options.render ?? 'json';
    this.withoutBody = options.withoutBody ?? false;
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

/** Shorthand for the common 400 `invalid_request`. */
export function invalidRequest(description: string): OAuthError {
  return new OAuthError(400, 'invalid_request', description);
}

/** Sends the HTML error page (with the page security headers) for browser-facing errors. */
export type ErrorPageRenderer = (
  res: Response,
  input: { status: number; error: string; description: string },
) => void;

function fromBoom(err: unknown): OAuthError | undefined {
  if (!isBoom(err)) return undefined;
  const status = err.output.statusCode;
  if (status >= 500) return undefined;
  const code = status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : 'invalid_request';
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(err.output.headers)) {
    if (typeof value === 'string') headers[key] = value;
  }
  return new OAuthError(status, code, err.message, { headers });
}

/**
 * body-parser errors (malformed JSON, wrong charset, too large) carry `status` and `type`;
 * the router's URIError for a path parameter that is not valid percent-encoding
 * (`/interaction/%ZZ`) carries `status` 400.
 */
function fromBodyParser(err: unknown): OAuthError | undefined {
  if (typeof err !== 'object' || err === null || !('status' in err)) return undefined;
  if (!('type' in err) && !(err instanceof URIError)) return undefined;
  const status = err.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return new OAuthError(status, 'invalid_request', 'the request body could not be read');
}

/** A change that met another one to the same account and could not finish: 409, never 500. */
function fromConflict(err: unknown): OAuthError | undefined {
  if (!(err instanceof StoreConflictError)) return undefined;
  return new OAuthError(
    409,
    'conflict',
    'Another change to this account happened at the same moment. Try again.',
    {
      render: 'auto',
      cause: err,
    },
  );
}

/** The issuer's single error middleware: `{ error, error_description }` or the error page. */
export function createErrorMiddleware(
  logger: Logger,
  renderPage: ErrorPageRenderer,
  renderFor: (req: Request) => 'json' | 'page' = () => 'json',
): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const known =
      err instanceof OAuthError ? err : (fromBoom(err) ?? fromBodyParser(err) ?? fromConflict(err));
    if (!known) {
      const stack = err instanceof Error ? err.stack : String(err);
      logger.error('unexpected error', { method: req.method, path: req.path, stack });
      res.status(500).set('Cache-Control', 'no-store').json({
        error: 'server_error',
        error_description: 'the server could not complete the request',
      });
      return;
    }
    logger.debug('request refused', {
      method: req.method,
      path: req.path,
      status: known.status,
      error: known.error,
    });
    res.set(known.headers);
    if (known.render === 'page' || (known.render === 'auto' && renderFor(req) === 'page')) {
      renderPage(res, { status: known.status, error: known.error, description: known.message });
      return;
    }
    res.status(known.status).set('Cache-Control', 'no-store');
    if (known.withoutBody) res.end();
    else res.json(known.toJSON());
  };
}

/**
 * The last route: anything unmatched is a 404, JSON on the API and well-known paths and the
 * merchant's error page elsewhere (a person who mistyped an address).
 */
export const notFoundHandler: RequestHandler = () => {
  throw new OAuthError(404, 'not_found', 'There is nothing at this address.', { render: 'auto' });
};
