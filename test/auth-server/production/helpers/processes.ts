/**
 * Real issuer processes for the tests that need them: compiles the issuer once (under a
 * lock, since test files run in parallel), spawns `node lib/auth-server/cli.js serve
 * --port 0 …`, waits (bounded) for `listening on <url>`, keeps every stdout line (the JSON
 * logs) and stops the process with a signal, reporting its exit code. Also a fresh
 * PostgreSQL database per test file, since the CLI takes a URL and no schema.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '../../../..');
export const CLI = join(ROOT, 'lib/auth-server/cli.js');
const LOCK = join(tmpdir(), 'agent-auth-compile.lock');
const run = promisify(execFile);

/** A compile takes seconds: a lock older than this was left by a run that was killed while holding it. */
const STALE_LOCK_MS = 2 * 60_000;

async function acquireLock(): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      await mkdir(LOCK);
      return;
    } catch {
      const since = await stat(LOCK).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rmdir(LOCK).catch(() => undefined);
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`could not take ${LOCK} within two minutes`);
}

/** Compiles auth-server/ into lib/ (incremental). Type errors elsewhere do not stop the emit. */
export async function compileIssuer(): Promise<void> {
  await acquireLock();
  try {
    await run(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: ROOT,
      },
    ).catch(() => undefined);
  } finally {
    await rmdir(LOCK).catch(() => undefined);
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} was not built`);
}

export interface IssuerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** stdout lines so far (JSON log lines plus `listening on`). */
  lines: string[];
  stderr: string[];
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function spawnIssuer(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<IssuerProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  let buffered = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" within 20 s: ${stderr.join('')}`)),
      20_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const match = /^listening on (\S+)$/.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`issuer exited with ${code} before listening: ${stderr.join('')}`));
    });
  });
  return {
    url,
    child,
    lines,
    stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs the CLI to completion (e.g. `customers add`), feeding `stdin`. */
export function runCli(
  args: readonly string[],
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the server of `baseUrl`, dropped (forcibly) afterwards. */
export async function createFreshPostgres(baseUrl: string): Promise<FreshPostgres> {
  const name = `agent_auth_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
