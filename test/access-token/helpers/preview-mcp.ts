/**
 * The real live handler for the end-to-end OAuth proof: the sample merchant built with the
 * generator into a temporary directory and served by `npm run preview`'s app on a loopback
 * port. The port is taken first (the server starts with nothing to serve) because three
 * parts must agree on it before anything runs: the issuer's RFC 8707 resources name the
 * MCP endpoint, and the bundle's `site_url`/`base_url` (its endpoint, its metadata) and
 * `auth_url` (the issuer) are fixed at build time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../../generator/build.js';
import { silentLogger } from '../../../generator/logger.js';
import { createPreviewApp } from '../../../generator/preview/app.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface PreviewMcp {
  /** `http://127.0.0.1:<port>`, the bundle's `site_url` and `base_url`. */
  origin: string;
  /** `{origin}/mcp`, the resource identifier. */
  endpoint: string;
  /** Builds the bundle for `issuer` and serves it, token expiry by `now`; until then every request is a 503. */
  serveFor(issuer: string, now: () => number): Promise<void>;
  close(): Promise<void>;
}

export async function startPreviewMcp(): Promise<PreviewMcp> {
  let app: RequestListener | undefined;
  const server = createServer((req, res) => {
    if (app) app(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-mcp-e2e-'));
  return {
    origin,
    endpoint: `${origin}/mcp`,
    async serveFor(issuer, now) {
      await build({
        configPath: 'catalog.config.json',
        out: dir,
        cwd: ROOT,
        flags: { site_url: origin, base_url: origin, auth_url: issuer },
        write: true,
        logger: silentLogger,
      });
      app = createPreviewApp({ dir, logger: silentLogger, now });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
