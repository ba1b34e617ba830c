/**
 * Starts the preview on a port: checks first that the directory is a bundle (readable,
 * with a `_headers` file the hosting-rules parser accepts), so a wrong `--dir` fails at
 * once with FLAG_INVALID (exit 2) instead of serving 404s, and so does a port that is
 * taken. This is the programmatic entry the `preview` command and the tests share.
 */
import { realpath, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import type { Express } from 'express';
import {
  createHookRuntime,
  type EnvReader,
  PROCESS_POLICY,
  type TriggerPolicy,
} from '../../live/shells/core.js';
import { CatalogError } from '../errors.js';
import { type Logger, silentLogger } from '../logger.js';
import { createPreviewApp } from './app.js';
import { createRulesLoader, type HostingRules } from './hosting-rules.js';

export interface PreviewServerOptions {
  dir: string;
  /** 0 picks a free port. Default 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Enforced requests a minute per client address; off when undefined or 0. */
  rateLimit?: number;
  logger?: Logger;
  /**
   * The environment the webhook receiver reads its secrets and rebuild URL from (the
   * command passes `process.env`); no receiver is on without it.
   */
  env?: EnvReader;
  /** How deliveries are coalesced into triggers; default one trigger a minute at most. */
  hookPolicy?: TriggerPolicy;
}

export interface PreviewServer {
  /** `http://<host>:<port>`, with the port actually bound. */
  url: string;
  /** Where the bundle's rules serve the catalog (`{base_url}` path + `/agent-catalog`). */
  catalogPath: string;
  close(): Promise<void>;
}

function bundleError(dir: string, message: string, cause?: unknown): CatalogError {
  return new CatalogError('FLAG_INVALID', `--dir ${dir}: ${message}`, { dir }, { cause });
}

/** Refuses a directory that is missing, unreadable or holds no (valid) hosting rules; returns the rules. */
export async function assertBundleDir(dir: string): Promise<HostingRules> {
  let realDir: string;
  try {
    realDir = await realpath(dir);
    if (!(await stat(realDir)).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw bundleError(dir, 'not a readable directory', error);
  }
  // The same reader and parser the app uses per request, so start-up refuses exactly
  // what serving would fail on (a missing `_headers`; a missing `_redirects` is fine).
  try {
    return await createRulesLoader()(realDir);
  } catch (error) {
    throw bundleError(dir, 'not a built bundle: its hosting rules cannot be read or do not parse', error);
  }
}

/**
 * A port or address this machine will not give us is the caller's argument to change, so
 * it is FLAG_INVALID (exit 2) naming the flag, in one line without the raw errno text.
 */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const details = { port, host, code };
  if (code === 'EADDRINUSE') {
    const message = `--port ${port}: ${host}:${port} is already in use; pass --port with another port (--port 0 picks a free one)`;
    return new CatalogError('FLAG_INVALID', message, details);
  }
  if (code === 'EACCES') {
    const message = `--port ${port}: not allowed to listen on ${host}:${port}; pass --port with another port (above 1023, or 0 for a free one)`;
    return new CatalogError('FLAG_INVALID', message, details);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new CatalogError('FLAG_INVALID', `--host ${host}: not an address of this machine`, details);
  }
  return error;
}

/**
 * Node's own bounds on a slow client, behind the live handler's 10 s body limit: the whole
 * request within 15 s, its headers within 10 s, checked every second (Node's default is
 * every 30 s, which would let a body that never ends hold a connection that long).
 */
const SERVER_LIMITS = { requestTimeout: 15_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 };

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolveListen, reject) => {
    const server = createServer(SERVER_LIMITS, app);
    const fail = (error: Error): void => reject(listenError(error, port, host));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolveListen(server);
    });
  });
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** How long requests in flight may take to finish before their connections are cut. */
const CLOSE_GRACE_MS = 5_000;

function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose, reject) => {
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    cut.unref();
    server.close((error) => {
      clearTimeout(cut);
      if (error) reject(error);
      else resolveClose();
    });
    // Keep-alive connections would hold close() open until their clients leave.
    server.closeIdleConnections();
  });
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const dir = resolve(options.dir);
  const host = options.host ?? '127.0.0.1';
  const rules = await assertBundleDir(dir);
  const logger = options.logger ?? silentLogger;
  const hooks =
    options.env &&
    createHookRuntime(options.env, {
      policy: options.hookPolicy ?? PROCESS_POLICY,
      // The outcome only: the rebuild URL is a secret of its own (a build hook's URL).
      report: (outcome) =>
        outcome.ok
          ? logger.info(`webhooks: rebuild triggered (${outcome.status})`)
          : logger.warn(
              `webhooks: rebuild trigger failed after ${outcome.attempts} attempt(s): ${outcome.reason}`,
            ),
    });
  const app = createPreviewApp({ dir, rateLimit: options.rateLimit, logger, ...(hooks ? { hooks } : {}) });
  const server = await listen(app, options.port ?? 8080, host);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new TypeError('preview: not a TCP server');
  // close() may be called more than once (a test's afterEach after an explicit close).
  let closing: Promise<void> | undefined;
  return {
    url: formatUrl(host, address.port),
    catalogPath: rules.catalogPath,
    close: () => {
      closing ??= closeServer(server);
      return closing;
    },
  };
}
