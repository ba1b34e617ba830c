/**
 * `agent-catalog preview`: serves a built bundle as the CDN would (issue 4), and
 * `agent-catalog serve`, the same server for a merchant who hosts the bundle on their own
 * machine: static files with their `_headers`, and the live handler on the paths the
 * bundle's `_routes.json` names (one server, so what a merchant runs is what was previewed). Prints
 * `listening on <url>` on stdout once the port is bound (tests and scripts wait for that
 * first line), then the addresses worth opening; one line per request on stderr unless
 * --quiet; stops cleanly on SIGINT or SIGTERM. A `--dir` that is not a bundle, or a port
 * that is taken, is a usage error: exit 2.
 */
import { resolve } from 'node:path';
import { describeErrorChain, exitStatusFor } from '../errors.js';
import type { Logger } from '../logger.js';
import { startPreviewServer } from '../preview/server.js';
import type { CommandIo } from './io.js';

export interface PreviewCommandOptions {
  dir: string;
  port: number;
  host: string;
  rateLimit?: number;
  quiet: boolean;
  /** Which command runs, for its messages. Default `preview`. */
  command?: 'preview' | 'serve';
}

function createStderrLogger(io: CommandIo, quiet: boolean): Logger {
  const write = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  return { info: quiet ? () => {} : write, warn: write, debug: () => {} };
}

/** The addresses worth opening, after the `listening on` line that scripts wait for. */
export function formatUrlsToOpen(url: string, catalogPath: string): string {
  const rows: [string, string][] = [
    ['/', 'the landing page, or (preview only) the list of documents served'],
    [catalogPath, 'the catalog'],
    ['/api/', 'the API documentation page'],
  ];
  const width = Math.max(...rows.map(([path]) => url.length + path.length));
  return rows.map(([path, what]) => `  ${`${url}${path}`.padEnd(width)}  ${what}\n`).join('');
}

/** Resolves on the first SIGINT or SIGTERM. */
function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveSignal(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Resolves once the server has closed after `stop` (by default SIGINT/SIGTERM); returns
 * the exit status: 0 after a clean stop, 2 for a directory that is not a bundle or a port
 * that is taken, 1 for any other failure to start.
 */
export async function runPreview(
  options: PreviewCommandOptions,
  io: CommandIo,
  stop: () => Promise<unknown> = waitForSignal,
): Promise<number> {
  const logger = createStderrLogger(io, options.quiet);
  let server: Awaited<ReturnType<typeof startPreviewServer>>;
  try {
    server = await startPreviewServer({
      dir: resolve(io.cwd, options.dir),
      port: options.port,
      host: options.host,
      rateLimit: options.rateLimit,
      logger,
      // The webhook receiver's secrets live in the environment only (docs/hosting.md).
      env: (name) => io.env[name],
    });
  } catch (error) {
    io.stderr.write(
      `agent-catalog ${options.command ?? 'preview'}: ${describeErrorChain(error).join(': ')}\n`,
    );
    return exitStatusFor(error);
  }
  io.stdout.write(`listening on ${server.url}\n${formatUrlsToOpen(server.url, server.catalogPath)}`);
  await stop();
  await server.close();
  return 0;
}
