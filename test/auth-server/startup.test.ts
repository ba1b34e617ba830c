import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requires } from '../helpers/requirements.js';
import { POSTGRES, POSTGRES_URL } from './helpers/databases.js';

// The issuer's start-up as a person meets it, through the real compiled CLI: what it says
// when the database or the port is not available, and what `--dev` relaxes.
const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'lib', 'auth-server', 'cli.js');
const READ_ENV = ['PORT', 'AUTH_ISSUER', 'AUTH_DATABASE_URL', 'AUTH_RATE_LIMIT', 'AUTH_REGISTRATION_LIMIT'];

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The `listening on` URL, or undefined when the process exited first. */
  url: string | undefined;
  code: number | null;
}

function startCli(args: string[]): Promise<Started> {
  const env = { ...process.env };
  for (const name of READ_ENV) delete env[name];
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const done = (url: string | undefined, code: number | null) => {
      clearTimeout(timer);
      resolve({ child, stdout: () => stdout, stderr: () => stderr, url, code });
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) done(match[1], null);
    });
    child.on('error', reject);
    child.on('close', (code) => done(undefined, code));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A loopback port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function register(issuer: string, n: number): Promise<number> {
  const response = await fetch(`${issuer}/oauth/clients/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: `trial ${n}`,
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    }),
  });
  await response.body?.cancel();
  return response.status;
}

async function registerMany(issuer: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 1; n <= count; n++) statuses.push(await register(issuer, n));
  return statuses;
}

describe('agent-auth start-up errors', () => {
  it('when PostgreSQL is unreachable then serve names the host and port, not the password', async () => {
    const port = await closedPort();
    const secret = randomBytes(8).toString('hex');
    const result = await startCli([
      'serve',
      '--port',
      '0',
      '--db',
      `postgres://bob:${secret}@127.0.0.1:${port}/issuer`,
    ]);
    expect(result.url).toBeUndefined();
    expect(result.code).toBe(1);
    expect(result.stderr()).toContain(`cannot connect to the database at 127.0.0.1:${port}`);
    expect(result.stderr()).not.toContain(secret);
    expect(result.stderr()).not.toMatch(/migration/i);
  });

  it('when PostgreSQL is unreachable then migrate says the same', async () => {
    const port = await closedPort();
    const result = await startCli(['migrate', '--db', `postgres://bob:pw-${port}@127.0.0.1:${port}/issuer`]);
    expect(result.code).toBe(1);
    expect(result.stderr()).toContain(`cannot connect to the database at 127.0.0.1:${port}`);
    expect(result.stderr()).not.toContain(`pw-${port}`);
  });

  it('when PostgreSQL is unreachable then customers invite and import say the same', async () => {
    const port = await closedPort();
    const db = `postgres://bob:pw-${port}@127.0.0.1:${port}/issuer`;
    for (const args of [
      ['customers', 'invite', '--email', 'ann@example.com', '--name', 'Ann', '--db', db],
      ['customers', 'import', 'no-such-export.csv', '--db', db],
    ]) {
      const result = await startCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr()).toContain(`cannot connect to the database at 127.0.0.1:${port}`);
      expect(result.stderr()).not.toContain(`pw-${port}`);
    }
  });

  describe("on the machine's PostgreSQL", requires(POSTGRES), () => {
    it('when the login is refused then migrate names the address and what to check in --db', async () => {
      const url = new URL(POSTGRES_URL ?? '');
      const secret = randomBytes(8).toString('hex');
      url.username = `no_such_role_${randomBytes(4).toString('hex')}`;
      url.password = secret;
      const result = await startCli(['migrate', '--db', url.href]);
      expect(result.code).toBe(1);
      expect(result.stderr()).toContain(
        `cannot connect to the database at ${url.hostname}:${url.port || '5432'}`,
      );
      expect(result.stderr()).toContain('--db');
      expect(result.stderr()).not.toContain(secret);
    });
  });

  describe('on a port that is taken', () => {
    let dir: string;
    let holder: Server;
    let port: number;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'agent-auth-startup-'));
      holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const address = holder.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      port = address.port;
    });
    afterAll(async () => {
      await new Promise((resolve) => holder.close(resolve));
      await rm(dir, { recursive: true, force: true });
    });

    it('when the port is in use then serve says so and names --port', async () => {
      const result = await startCli(['serve', '--port', String(port), '--db', join(dir, 'auth.sqlite')]);
      expect(result.url).toBeUndefined();
      expect(result.code).toBe(1);
      expect(result.stderr()).toContain(`port ${port} is in use; pass --port`);
    });
  });
});

describe('agent-auth serve with a wrong --catalog-config', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-catalog-'));
    await writeFile(join(dir, 'broken.json'), '{ "merchant": ');
    await writeFile(join(dir, 'partial.json'), JSON.stringify({ merchant: { name: 'Shop' } }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cases: [string, string, RegExp][] = [
    ['absent', 'absent.json', /cannot read the catalog config .*absent\.json/],
    ['not JSON', 'broken.json', /broken\.json is not valid JSON/],
    ['missing the store link', 'partial.json', /partial\.json.*merchant\.url/],
    ['a folder', '.', /cannot read the catalog config/],
  ];
  for (const [name, file, message] of cases) {
    it(`when the catalog config is ${name} then serve says which and why, exits 2, and creates no database or key`, async () => {
      const data = join(dir, `data-${name.replace(/\W/g, '-')}`);
      const result = await startCli([
        'serve',
        '--port',
        '0',
        '--db',
        join(data, 'auth.sqlite'),
        '--catalog-config',
        join(dir, file),
      ]);
      expect(result.url).toBeUndefined();
      expect(result.code).toBe(2);
      expect(result.stderr()).toMatch(message);
      expect(result.stderr()).not.toMatch(/^\s+at /m);
      expect(existsSync(data)).toBe(false);
    });
  }
});

describe('agent-auth serve --dev', () => {
  let dir: string;
  const running: ChildProcess[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-dev-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stop));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function serve(name: string, extra: string[]): Promise<Started & { url: string }> {
    const started = await startCli(['serve', '--port', '0', '--db', join(dir, `${name}.sqlite`), ...extra]);
    running.push(started.child);
    if (started.url === undefined) throw new Error(`the issuer did not start: ${started.stderr()}`);
    return { ...started, url: started.url };
  }

  it('without --dev the eleventh registration in an hour is refused with 429', async () => {
    const issuer = await serve('plain', []);
    const statuses = await registerMany(issuer.url, 11);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
    // The operator's log names the setting; the client's answer does not.
    await vi.waitFor(() => expect(issuer.stdout()).toMatch(/"msg":"rate limit exceeded".*--dev/), {
      timeout: 5_000,
    });
  });

  it('with --dev registrations are not throttled, and the start says so loudly', async () => {
    const issuer = await serve('dev', ['--dev']);
    expect(issuer.stderr()).toContain('DEVELOPMENT MODE');
    expect(issuer.stderr()).toMatch(/registration throttle: off/);
    const statuses = await registerMany(issuer.url, 15);
    expect(statuses).toEqual(Array(15).fill(201));
  });

  it('with --dev limits given on the command line still apply', async () => {
    const issuer = await serve('dev-limited', ['--dev', '--rate-limit', '600', '--registration-limit', '3']);
    expect(issuer.stderr()).toMatch(/registration throttle: 3 an hour/);
    const statuses = await registerMany(issuer.url, 4);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('with --dev on an interface other than loopback the issuer refuses to start', async () => {
    const result = await startCli([
      'serve',
      '--dev',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--db',
      join(dir, 'x.sqlite'),
    ]);
    expect(result.url).toBeUndefined();
    expect(result.code).toBe(2);
    expect(result.stderr()).toContain('--dev');
  });
});
