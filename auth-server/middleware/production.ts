/**
 * Installs the issuer's operational middleware in front of its routes, in the order that
 * makes each one work: the trusted proxies (so `req.ip` is right for everything after), the
 * request id and access log, the shutdown drain, the security headers, CORS (preflights
 * answered before anything counts them), `/healthz` (never limited), the body limits, then
 * the rate limits (60 a minute per authenticated client or, for everything else, per address, and the
 * tighter per-address registration throttle) and the tracker that records a client's use
 * for the reaper. `createApp` calls this once, before mounting the endpoint routers.
 */
import type { Express, Request } from 'express';
import type { IssuerContext } from '../context.js';
import { createAuthenticatedClientResolver } from '../rate-limit/authenticated-client.js';
import { createClientResolver } from '../rate-limit/client-key.js';
import { createRateLimiter } from '../rate-limit/limiter.js';
import { createClientUsageTracker } from '../reaper.js';
import { createHealthzRouter } from '../routes/healthz.js';
import { createBodyGuard, createEarlyFormParser, EARLY_FORM_PATHS } from './body-limits.js';
import { createCorsMiddleware } from './cors.js';
import { createDrainMiddleware } from './drain.js';
import { createRequestIdMiddleware } from './request-id.js';
import { createSecurityHeadersMiddleware } from './security-headers.js';
import { toExpressTrustProxy } from './trust-proxy.js';

const API_PATHS: ReadonlySet<string> = new Set([
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/userinfo',
  '/oauth/clients/register',
]);

/** JSON for API endpoints and machine documents; the HTML error page for what a person sees. */
export function renderFor(req: Request): 'json' | 'page' {
  return API_PATHS.has(req.path) || req.path.startsWith('/.well-known/') ? 'json' : 'page';
}

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function installProductionMiddleware(app: Express, ctx: IssuerContext): void {
  const { config, store, logger, clock } = ctx;
  app.set('trust proxy', toExpressTrustProxy(config.trustProxy));
  app.use(createRequestIdMiddleware(logger, config.trustProxy.length > 0));
  app.use(createDrainMiddleware());
  app.use(createSecurityHeadersMiddleware(config.issuer));
  app.use(createCorsMiddleware());
  app.use(createHealthzRouter(ctx));
  app.use(createBodyGuard());
  app.use([...EARLY_FORM_PATHS], createEarlyFormParser());
  const resolver = createClientResolver(store, clock);
  const authenticated = createAuthenticatedClientResolver(store, clock);
  if (config.rateLimit > 0) {
    app.use(
      createRateLimiter({
        policy: { name: 'default', limit: config.rateLimit, windowSeconds: 60 },
        counters: store.counters,
        clock,
        logger,
        renderFor,
        setting: '--rate-limit (AUTH_RATE_LIMIT); --dev turns it off on a local issuer',
        // A budget is a client's only once the client authenticated with its secret; a bare
        // client_id is public and buys nothing. Browser pages always count against the address.
        // The client budget is still paired with the address, so nobody can spend another
        // client's budget from elsewhere.
        async keyFor(req) {
          const ip = clientIp(req);
          if (renderFor(req) === 'page') return `ip:${ip}`;
          const clientId = await authenticated.resolve(req);
          return clientId === undefined ? `ip:${ip}` : `client:${clientId}:ip:${ip}`;
        },
      }),
    );
  }
  if (config.rateLimit > 0 && config.registrationLimit > 0) {
    app.use(
      createRateLimiter({
        policy: { name: 'registration', limit: config.registrationLimit, windowSeconds: 3600 },
        counters: store.counters,
        clock,
        logger,
        renderFor,
        setting: '--registration-limit (AUTH_REGISTRATION_LIMIT); --dev turns it off on a local issuer',
        keyFor: (req) =>
          req.method === 'POST' && req.path === '/oauth/clients/register' ? `ip:${clientIp(req)}` : undefined,
      }),
    );
  }
  app.use(createClientUsageTracker(store, resolver, clock));
}
