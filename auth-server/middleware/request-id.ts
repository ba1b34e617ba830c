/**
 * Gives every request an id and one access-log line. A sane incoming `X-Request-Id` (set by
 * a load balancer or the client, so one id follows a request across hops) is kept; anything
 * else is replaced by a fresh UUID, because an attacker-chosen id must not be able to forge
 * log lines or blow up their size. The id is echoed in the response and attached to every
 * line logged while the request is handled. The access line names the method, the path
 * without its query (queries carry `state`, `code_challenge` and the like), the status and
 * the duration; health probes are logged at debug so they do not drown the rest.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { type Logger, withRequestId } from '../logger.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The incoming id when it is sane, else a new one. */
export function chooseRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** What the access line says about one request; `started` is its `performance.now()` on arrival. */
export interface AccessRecord {
  requestId: string;
  method: string | undefined;
  path: string;
  status: number;
  started: number;
  ip: string | undefined;
}

/** Writes the one access line of a request (the fast path for fixed documents uses it too). */
export function logAccess(logger: Logger, record: AccessRecord): void {
  const fields = {
    requestId: record.requestId,
    method: record.method,
    path: record.path,
    status: record.status,
    ms: Math.round((performance.now() - record.started) * 1000) / 1000,
    ip: record.ip,
  };
  if (record.path === '/healthz') logger.debug('request', fields);
  else logger.info('request', fields);
}

/**
 * The client address for the access line, as Express's `req.ip` works it out: with no
 * trusted proxy that is the TCP peer, read directly (Express would parse X-Forwarded-For
 * only to discard it, a few µs on every request).
 */
export function clientAddress(
  req: Pick<Request, 'socket'> & { readonly ip?: string | undefined },
  trustsProxies: boolean,
): string | undefined {
  return trustsProxies ? req.ip : req.socket.remoteAddress;
}

export function createRequestIdMiddleware(logger: Logger, trustsProxies: boolean): RequestHandler {
  return (req, res, next) => {
    const requestId = chooseRequestId(req.headers['x-request-id']);
    const started = performance.now();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.once('finish', () => {
      logAccess(logger, {
        requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        started,
        ip: clientAddress(req, trustsProxies),
      });
    });
    withRequestId(requestId, next);
  };
}
