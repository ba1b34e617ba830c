/**
 * The preview's Express app: every request is answered from the bundle directory as the
 * CDN would answer it, with routes and headers from the bundle's own `_headers` and
 * `_redirects`. The directory is resolved again on every request, so a rebuild that swaps
 * it by rename is served at once. The paths the bundle's `_routes.json` sends to the live
 * handler are answered by the same core the hosts run, through the Node shell (as
 * Cloudflare Pages routes them; Netlify's function claims the same list), so preview
 * claims no live path the hosts do not. `createPreviewApp` never listens; `server.ts` does.
 */

import { createReadStream } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { HookRuntime } from '../../live/shells/core.js';
import { createNodeLiveHandler } from '../../live/shells/node-http.js';
import { matchesRoutes } from '../emit/live-routes.js';
import type { Logger } from '../logger.js';
import { isRecord } from '../validate/bundle-layout.js';
import { computeEtag } from './conditional.js';
import {
  collectHeaders,
  createRulesLoader,
  type HostingRules,
  withoutTrailingSlash,
} from './hosting-rules.js';
import {
  createRateLimiter,
  formatRateLimitField,
  formatRateLimitPolicy,
  policyNameOf,
  type RateLimiter,
} from './rate-limit.js';
import { isHiddenPath, parseRequestPath, resolveInside } from './request-path.js';
import {
  headersForPaths,
  isApiPath,
  readServedFile,
  sendError,
  sendFile,
  sendMethodNotAllowed,
} from './respond.js';
import { sendRootPage } from './root-page.js';
import { resolveRoute } from './route.js';

export interface PreviewAppOptions {
  /** The bundle directory (absolute). */
  dir: string;
  /** Requests a minute per client address; undefined or 0 means no limit. */
  rateLimit?: number;
  logger: Logger;
  /** The live handler's clock for access-token expiry; tests move it. */
  now?: () => number;
  /** The webhook receiver's state (from the environment `serve` runs in); undefined when off. */
  hooks?: HookRuntime;
}

interface PreviewContext {
  dir: string;
  loadRules: (realDir: string) => Promise<HostingRules>;
  limiter: RateLimiter | undefined;
  /**
   * The verdict on the last catalog bytes, by their entity tag: parsing a 50,000-product
   * catalog on every request would cost more than serving it, and the bytes rarely change.
   */
  checkedCatalog: { etag: string; valid: boolean } | undefined;
  /** The live handler through the Node shell: true once it has answered. */
  live: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/** A file of the bundle for the live core, by URL path, read from inside the bundle only: its bytes. */
async function readBundleAssetBytes(dir: string, path: string): Promise<Buffer | undefined> {
  const realDir = await realpath(dir).catch(() => undefined);
  const found = realDir === undefined ? undefined : await resolveInside(realDir, path);
  if (found === undefined || !found.stats.isFile()) return undefined;
  return readFile(found.file);
}

/** The same, as UTF-8 text. */
async function readBundleAsset(dir: string, path: string): Promise<string | undefined> {
  return (await readBundleAssetBytes(dir, path))?.toString('utf8');
}

/** A file of the bundle as a byte stream (a parted document's part), from inside the bundle only. */
async function openBundleAsset(dir: string, path: string): Promise<ReadableStream<Uint8Array> | undefined> {
  const realDir = await realpath(dir).catch(() => undefined);
  const found = realDir === undefined ? undefined : await resolveInside(realDir, path);
  if (found === undefined || !found.stats.isFile()) return undefined;
  return Readable.toWeb(createReadStream(found.file)) as ReadableStream<Uint8Array>;
}

/** Spec part 7: the catalog must be a JSON object with a products list, or the answer is 500. */
function isValidCatalog(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return isRecord(value) && Array.isArray(value.products);
  } catch {
    return false;
  }
}

function isCheckedCatalog(context: PreviewContext, bytes: Buffer, etag: string): boolean {
  if (context.checkedCatalog?.etag !== etag) context.checkedCatalog = { etag, valid: isValidCatalog(bytes) };
  return context.checkedCatalog.valid;
}

/** Counts the request against the client's window; false when it was refused with 429. */
function applyRateLimit(req: Request, res: Response, rules: HostingRules, limiter: RateLimiter): boolean {
  const announced = rules.rateLimitPolicy;
  const policy = policyNameOf(announced) ?? 'default';
  const verdict = limiter.take(req.socket.remoteAddress ?? 'unknown');
  res.setHeader('RateLimit-Policy', announced ?? formatRateLimitPolicy(policy, limiter.limit));
  res.setHeader('RateLimit', formatRateLimitField(policy, verdict));
  if (verdict.allowed) return true;
  res.setHeader('Retry-After', String(verdict.resetSeconds));
  const api = isApiPath(req.path, rules);
  sendError(res, 429, 'too many requests', api, rules.catalogHeaders);
  return false;
}

/** As both hosts answer a missing path: their 404 page, or plain text, never CORS or JSON. */
async function sendNotFound(res: Response, realDir: string): Promise<void> {
  const page = await readServedFile(join(realDir, '404.html'));
  if (page === undefined) return sendError(res, 404, 'not found', false);
  res.setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'no-store');
  res.status(404).end(res.req.method === 'HEAD' ? undefined : page);
}

async function handleRequest(req: Request, res: Response, context: PreviewContext): Promise<void> {
  const realDir = await realpath(context.dir).catch(() => undefined);
  if (realDir === undefined) return sendError(res, 503, 'bundle directory unavailable', true);
  const rules = await context.loadRules(realDir);
  if (context.limiter && !applyRateLimit(req, res, rules, context.limiter)) return;
  const parsed = parseRequestPath(req.originalUrl);
  if (!parsed.ok) {
    return sendError(res, parsed.status, 'bad request', isApiPath(req.path, rules), rules.catalogHeaders);
  }
  const path = parsed.path;
  if (rules.liveRoutes && !isHiddenPath(path) && matchesRoutes(rules.liveRoutes, path)) {
    if (await context.live(req, res)) return;
  }
  const api = isApiPath(path, rules);
  const isCatalog = withoutTrailingSlash(path) === rules.catalogPath;
  const route = isHiddenPath(path)
    ? ({ kind: 'missing' } as const)
    : await resolveRoute(realDir, rules, path);
  if (route.kind === 'redirect') {
    const query = req.originalUrl.slice(req.originalUrl.split('?', 1)[0]?.length ?? 0);
    res.setHeader('Location', route.location.includes('?') ? route.location : `${route.location}${query}`);
    res.status(route.status).end();
    return;
  }
  if (path === '/' && (route.kind === 'proxy' || route.kind === 'missing')) {
    // Model (b): the store's home page on the real host; preview names what it serves instead.
    const headers = headersForPaths(rules, ['/']);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, headers);
    return sendRootPage(req, res, realDir, rules, headers);
  }
  if (route.kind === 'proxy') return sendError(res, 502, 'proxy rules are not served by preview', api);
  if (route.kind === 'missing') {
    if (isCatalog) return sendError(res, 500, 'the bundle holds no catalog', true, rules.catalogHeaders);
    // Cloudflare Pages applies a path's `_headers` rule to its 404 too (wrangler pages dev
    // sends model (b)'s discovery Link on `/`); preview sends that Link the same way.
    const link = collectHeaders(rules, path).get('link');
    if (link !== undefined) res.setHeader('Link', link[1]);
    return sendNotFound(res, realDir);
  }
  const headers = headersForPaths(rules, route.headerPaths);
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, headers);
  const bytes = await readServedFile(route.resolved.file);
  const etag = bytes && computeEtag(bytes);
  if (isCatalog && !(bytes && etag && isCheckedCatalog(context, bytes, etag))) {
    return sendError(res, 500, 'the bundle holds no valid catalog', true, rules.catalogHeaders);
  }
  if (bytes === undefined || etag === undefined) return sendNotFound(res, realDir);
  sendFile(req, res, { bytes, etag, file: route.resolved.file, status: route.status, headers });
}

function logRequests(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const ms = (performance.now() - started).toFixed(1);
      logger.info(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms}ms`);
    });
    next();
  };
}

function handleErrors(logger: Logger): ErrorRequestHandler {
  // Whatever went wrong (e.g. a `_headers` file broken mid-run), the client gets JSON, never a stack.
  return (error: unknown, _req, res, _next) => {
    logger.warn(`preview: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, 500, 'internal error', true);
  };
}

export function createPreviewApp(options: PreviewAppOptions): Express {
  const context: PreviewContext = {
    dir: options.dir,
    loadRules: createRulesLoader(),
    limiter: options.rateLimit ? createRateLimiter(options.rateLimit) : undefined,
    checkedCatalog: undefined,
    live: createNodeLiveHandler({
      readAsset: (path) => readBundleAsset(options.dir, path),
      readAssetBytes: (path) => readBundleAssetBytes(options.dir, path),
      openAsset: (path) => openBundleAsset(options.dir, path),
      ...(options.now ? { now: options.now } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
    }),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(logRequests(options.logger));
  app.use((req, res) => handleRequest(req, res, context));
  app.use(handleErrors(options.logger));
  return app;
}
