/**
 * The fast path for the issuer's fixed documents: the two discovery documents and the
 * JWKS. Their bodies change only when the issuer's keys do, yet through Express each
 * request paid about 300 µs of CPU for the router, the middleware stack and `res.json`
 * (issue 14, BENCHMARKS.md). Here each document is serialised once, with its headers
 * (the security headers, the CORS headers, Cache-Control, Content-Type, Content-Length)
 * laid out once beside it, and a request gets them written in one go. The JWKS is asked of
 * the key ring on every request as before, and rebuilt only when what it returns changes.
 *
 * Each carries a strong ETag computed with it, and an `If-None-Match` that matches gets a
 * 304 with the same headers minus the body's own (conditional.ts, shared with the routes).
 *
 * Only a request nothing else in the stack would touch takes this path: GET or HEAD of the
 * exact path, without a body, without `If-Modified-Since` (left to Express, which has no
 * date to compare and so ignores it), and only when no rate limiter is installed (a limiter counts every request,
 * these included, and adds its own headers). Everything else, and any failure, goes to the
 * Express app unchanged. The request id, the access-log line, the shutdown's
 * `Connection: close` and the client address (trusted proxies included) follow the same
 * policies as every other route, from the same modules; a test compares the two paths
 * header by header (test/auth-server/production/static-documents.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request } from 'express';
import { ifNoneMatchHits, strongEtag } from './conditional.js';
import type { IssuerContext } from './context.js';
import { withRequestId } from './logger.js';
import { buildAuthorizationServerMetadata, buildOpenIdConfiguration } from './metadata.js';
import { CORS_RESPONSE_HEADERS, isCorsPath } from './middleware/cors.js';
import { isServerClosing } from './middleware/drain.js';
import { chooseRequestId, clientAddress, logAccess } from './middleware/request-id.js';
import { type HeaderEntry, overlayHeaders, securityHeaderList } from './middleware/security-headers.js';
import { jwksCacheControl } from './routes/jwks.js';
import { METADATA_CACHE_CONTROL, metadataInputOf } from './routes/metadata.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A document ready to send: its body, its tag, and its 200 and 304 headers after the request id, flattened. */
interface Prepared {
  readonly text: string;
  readonly etag: string;
  readonly headers: readonly string[];
  readonly notModifiedHeaders: readonly string[];
}

const JSON_TYPE = 'application/json; charset=utf-8';

function prepare(fixed: readonly HeaderEntry[], cacheControl: string, body: unknown): Prepared {
  // Kept as a string: Node writes the head and a string body in a single write.
  const text = JSON.stringify(body);
  const etag = strongEtag(text);
  const validators: HeaderEntry[] = [
    ['Cache-Control', cacheControl],
    ['ETag', etag],
  ];
  const content: HeaderEntry[] = [
    ['Content-Type', JSON_TYPE],
    ['Content-Length', String(Buffer.byteLength(text))],
  ];
  return {
    text,
    etag,
    headers: [...fixed, ...validators, ...content].flat(),
    notModifiedHeaders: [...fixed, ...validators].flat(),
  };
}

/** The JWKS document, rebuilt only when the published keys differ from the last call's. */
function jwksDocument(ctx: IssuerContext, fixed: readonly HeaderEntry[]): () => Promise<Prepared> {
  let last: { source: string; prepared: Prepared } | undefined;
  const cacheControl = jwksCacheControl(ctx.config);
  return async () => {
    const jwks = await ctx.keys.publicJwks();
    const source = JSON.stringify(jwks);
    if (last?.source !== source) last = { source, prepared: prepare(fixed, cacheControl, jwks) };
    return last.prepared;
  };
}

function documentsFor(ctx: IssuerContext): Map<string, () => Prepared | Promise<Prepared>> {
  const security = securityHeaderList(ctx.config.issuer);
  const fixedFor = (path: string) =>
    isCorsPath(path) ? overlayHeaders(security, CORS_RESPONSE_HEADERS) : security;
  const input = metadataInputOf(ctx);
  const oauth = '/.well-known/oauth-authorization-server';
  const openid = '/.well-known/openid-configuration';
  const jwks = '/.well-known/jwks.json';
  const oauthDoc = prepare(fixedFor(oauth), METADATA_CACHE_CONTROL, buildAuthorizationServerMetadata(input));
  const openidDoc = prepare(fixedFor(openid), METADATA_CACHE_CONTROL, buildOpenIdConfiguration(input));
  return new Map<string, () => Prepared | Promise<Prepared>>([
    [oauth, () => oauthDoc],
    [openid, () => openidDoc],
    [jwks, jwksDocument(ctx, fixedFor(jwks))],
  ]);
}

/** The path of an origin-form target, without its query (what Express calls `req.path`). */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** True when nothing but the document's route would act on this request. */
function isPlainRead(req: IncomingMessage): boolean {
  const { headers } = req;
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-encoding'] === undefined &&
    headers['if-modified-since'] === undefined
  );
}

/** The client address for the access line, by the same rule as every other route's (request-id.ts). */
function addressResolver(ctx: IssuerContext, app: Express): (req: IncomingMessage) => string | undefined {
  const trustsProxies = ctx.config.trustProxy.length > 0;
  if (!trustsProxies) return (req) => clientAddress(req, false);
  // Express's `ip` getter (proxy-addr and the compiled `trust proxy` rule) needs the request
  // it would have built: the same object with Express's request prototype.
  return (req) => {
    const expressRequest: Request = Object.setPrototypeOf(req, app.request);
    return clientAddress(expressRequest, true);
  };
}

/**
 * The issuer's request listener: the fixed documents from their prepared form, everything
 * else through `app`. With a rate limiter installed it is `app` itself.
 */
export function withStaticDocuments(ctx: IssuerContext, app: Express): RequestListener {
  if (ctx.config.rateLimit > 0) return app;
  const documents = documentsFor(ctx);
  const addressOf = addressResolver(ctx, app);
  return (req, res) => {
    const path = pathOf(req.url);
    const document = isPlainRead(req) ? documents.get(path) : undefined;
    if (document === undefined) {
      app(req, res);
      return;
    }
    const started = performance.now();
    const requestId = chooseRequestId(req.headers['x-request-id']);
    const send = (prepared: Prepared): void => {
      res.once('finish', () => {
        const ip = addressOf(req);
        logAccess(ctx.logger, { requestId, method: req.method, path, status: res.statusCode, started, ip });
      });
      const notModified = ifNoneMatchHits(req.headers['if-none-match'], prepared.etag);
      const own = notModified ? prepared.notModifiedHeaders : prepared.headers;
      const head = isServerClosing(req)
        ? ['X-Request-Id', requestId, 'Connection', 'close', ...own]
        : ['X-Request-Id', requestId, ...own];
      res.writeHead(notModified ? 304 : 200, head);
      if (req.method === 'HEAD' || notModified) res.end();
      else res.end(prepared.text);
    };
    withRequestId(requestId, () => {
      const prepared = document();
      if (!(prepared instanceof Promise)) send(prepared);
      // A failure (the key ring cannot read the store) is left to the app, which renders it
      // and logs the request as it logs any other.
      else prepared.then(send, () => app(req, res));
    });
  };
}
