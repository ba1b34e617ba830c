/**
 * Starts the hosts' own local engines on a bundle directory, for tests that compare them
 * with `preview`: Cloudflare's `wrangler pages dev` (workerd, the runtime Pages runs on)
 * and Netlify's `netlify dev --offline` (its static server plus the redirect and header
 * engine of its edge). They live in `test/hosts/`, with their own lockfile, because they are
 * large and netlify-cli's peer ranges conflict with the root's; `.ci/run` installs them with
 * `INSTALL_COMMAND`. Every run is private: HOME and the XDG folders point into a temporary
 * directory, telemetry, update checks and crash reports are off, and each engine binds
 * loopback ports only (netlify dev cannot be told a host; see `NETLIFY_LISTENS_WIDE`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETLIFY_FUNCTIONS_DIR } from '../../live/shells/host-files.js';
import type { Requirement } from '../helpers/requirements.js';

const HERE = fileURLToPath(new URL('./', import.meta.url));
/** This folder; `npm run bench` runs a compiled copy from `lib/test/hosts/`, whose engines are here too. */
export const HOSTS_DIR = existsSync(join(HERE, 'package.json'))
  ? HERE
  : join(HERE, '..', '..', '..', 'test', 'hosts');
export const INSTALL_COMMAND = 'npm ci --prefix test/hosts --ignore-scripts --no-audit --no-fund';
const WRANGLER = join(HOSTS_DIR, 'node_modules/wrangler/bin/wrangler.js');
const NETLIFY = join(HOSTS_DIR, 'node_modules/netlify-cli/bin/run.js');
/** The official MCP conformance suite's CLI (0.1.11: later releases need Node 22). */
export const MCP_CONFORMANCE = join(
  HOSTS_DIR,
  'node_modules/@modelcontextprotocol/conformance/dist/index.js',
);

/** The engine suites: `describe(name, requires(ENGINES), …)` skips, saying what to install, without them. */
export const ENGINES: Requirement = {
  met: existsSync(WRANGLER) && existsSync(NETLIFY) && existsSync(MCP_CONFORMANCE),
  skipReason: `CDN engine suites, wrangler, netlify-cli or the MCP conformance suite not installed: run \`${INSTALL_COMMAND}\` from the repository root`,
};

/**
 * The newest date the bundled workerd (1.20260426.x) accepts is 2026-04-26; pinned below it
 * so wrangler neither warns nor looks up a newer release.
 */
export const COMPATIBILITY_DATE = '2026-04-01';

/** netlify dev binds its proxy on every interface and has no flag to choose one. */
export const NETLIFY_LISTENS_WIDE = true;

const START_LIMIT_MS = 120_000;
/** Characters of an engine's output kept: its first and its last half. */
export const OUTPUT_KEPT = 1 << 20;
const CUT = '\n…\n';

export interface RunningEngine {
  name: 'wrangler' | 'netlify';
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The engine's process id, which leads its process group (workerd, the static server). */
  pid: number | undefined;
  /** `http://127.0.0.1:<port>` of the worker's DevTools inspector (wrangler only). */
  inspector?: string;
  /** Everything the engine printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A free loopback port: bound, read and released (the engines need a number up front). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The environment every engine runs with: a private home, and every phone-home switch off. */
function privateEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    TMPDIR: join(home, 'tmp'),
    NO_COLOR: '1',
    // Netlify: CI=true also stops its crash reporter, which ignores the telemetry switch.
    CI: 'true',
    NO_UPDATE_NOTIFIER: '1',
    // Cloudflare: no usage metrics, no request.cf lookup; the banner is where wrangler checks for updates.
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    WRANGLER_LOG_PATH: join(home, 'wrangler-logs'),
  };
}

/**
 * `text` and then `more`, cut to its first and last `limit / 2` characters once longer than
 * `limit`. An engine in trouble may print without end (wrangler logged 600 MB of "Too many
 * open files" within minutes at 100,000 products), and a string that long ends the test
 * process with "Invalid string length"; the start says how it began, the end how it is.
 */
export function appendBounded(text: string, more: string, limit = OUTPUT_KEPT): string {
  const joined = text + more;
  if (joined.length <= limit) return joined;
  return `${joined.slice(0, limit / 2)}${CUT}${joined.slice(-limit / 2)}`;
}

function run(
  command: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, command, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const append = (chunk: Buffer) => {
    text = appendBounded(text, chunk.toString('utf8'));
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { child, output: () => text };
}

/** Kills the engine's whole process group (workerd and the static server are its children). */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // The group is already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls until the engine answers any HTTP request, or fails with what it printed. */
async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the engine exited with ${child.exitCode}:\n${output()}`);
    try {
      await fetch(`${url}/robots.txt`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`the engine did not answer at ${url} within ${START_LIMIT_MS} ms:\n${output()}`);
}

/** Variables for the site's code, as the host's settings would hold them (the webhook receiver's secrets). */
export type SiteEnv = Readonly<Record<string, string>>;

/** How to start an engine on its port, and where its inspector listens, if it has one. */
interface EngineCommand {
  args: string[];
  cwd: string;
  inspector?: string;
}

/** Starts before giving up when the port was taken between `freePort` and the engine's bind. */
const START_ATTEMPTS = 3;

/**
 * A free port is free only until someone binds it: with engines started side by side (and
 * workerd opening ports of its own), another process took one in that gap once, and the
 * engine exited with "Address already in use". Such a start is tried again on a new port.
 */
async function startEngine(
  name: RunningEngine['name'],
  command: (port: number, home: string) => Promise<EngineCommand>,
  siteEnv: SiteEnv = {},
): Promise<RunningEngine> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startEngineOnce(name, command, siteEnv);
    } catch (error) {
      const taken = error instanceof Error && /Address already in use|EADDRINUSE/.test(error.message);
      if (!taken || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

async function startEngineOnce(
  name: RunningEngine['name'],
  command: (port: number, home: string) => Promise<EngineCommand>,
  siteEnv: SiteEnv,
): Promise<RunningEngine> {
  const home = await mkdtemp(join(tmpdir(), `agent-catalog-${name}-`));
  await mkdir(join(home, 'tmp'));
  const port = await freePort();
  const { args, cwd, inspector } = await command(port, home);
  const { child, output } = run(args, cwd, { ...privateEnv(home), ...siteEnv });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await killGroup(child);
    await rm(home, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, url, pid: child.pid, output, stop, ...(inspector === undefined ? {} : { inspector }) };
}

/**
 * `wrangler pages dev <dir>` on a loopback port, with a pinned compatibility date; `siteEnv`
 * becomes the worker's `env` bindings (`--binding NAME=value`, as a Pages project's variables).
 */
export function startWrangler(dir: string, siteEnv: SiteEnv = {}): Promise<RunningEngine> {
  return startEngine('wrangler', async (port, home) => {
    const inspectorPort = await freePort();
    return {
      cwd: home,
      inspector: `http://127.0.0.1:${inspectorPort}`,
      args: [
        WRANGLER,
        'pages',
        'dev',
        dir,
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(inspectorPort),
        '--compatibility-date',
        COMPATIBILITY_DATE,
        ...Object.entries(siteEnv).flatMap(([name, value]) => ['--binding', `${name}=${value}`]),
      ],
    };
  });
}

/** Runs one netlify command to completion in the private home (used for `--telemetry-disable`). */
async function runNetlifyOnce(args: string[], home: string): Promise<string> {
  const { child, output } = run([NETLIFY, ...args], home, privateEnv(home));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`netlify ${args.join(' ')} exited with ${code}:\n${output()}`);
  return output();
}

/**
 * `netlify dev --offline --dir <dir>` from an empty folder (so no netlify.toml applies),
 * after `netlify --telemetry-disable` has written the switch into the private home. The
 * bundle's live function folder, when it has one, is passed as `--functions` (what the
 * repository's netlify.toml names for a real deploy). `siteEnv` is in the process's
 * environment, which netlify dev hands to functions as a site's variables.
 */
export function startNetlify(dir: string, siteEnv: SiteEnv = {}): Promise<RunningEngine> {
  return startEngine(
    'netlify',
    async (port, home) => {
      await runNetlifyOnce(['--telemetry-disable'], home);
      const site = join(home, 'site');
      await mkdir(site);
      return {
        cwd: site,
        args: [
          NETLIFY,
          'dev',
          '--offline',
          '--internal-disable-edge-functions',
          '--skip-gitignore',
          '--no-open',
          '--dir',
          dir,
          '--port',
          String(port),
          '--functions-port',
          String(await freePort()),
          ...(existsSync(join(dir, NETLIFY_FUNCTIONS_DIR))
            ? ['--functions', join(dir, NETLIFY_FUNCTIONS_DIR)]
            : []),
        ],
      };
    },
    siteEnv,
  );
}
