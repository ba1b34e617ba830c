import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../auth-server/passwords.js';
import { openStore } from '../../auth-server/store/open-store.js';
import { type RunResult, runCli } from './helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'lib', 'auth-server', 'cli.js');

/** The environment without the variables the CLI reads, so flags alone decide. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['PORT', 'AUTH_ISSUER', 'AUTH_DATABASE_URL', 'AUTH_RATE_LIMIT']) delete env[name];
  return env;
}

function run(args: string[], stdin = ''): Promise<RunResult> {
  return runCli(args, { cwd: ROOT, env: cleanEnv(), stdin });
}

describe('the agent-auth command line', () => {
  let dir: string;
  let db: string;

  beforeAll(async () => {
    // Compile as `npm run auth` does; errors elsewhere in the tree must not stop the emit.
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'ignore',
        },
      );
    } catch {
      // tsc exits non-zero on type errors but still emits.
    }
    expect(existsSync(CLI)).toBe(true);
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-cli-'));
    db = join(dir, 'nested', 'auth.sqlite');
  }, 120_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('migrate creates the database folder and the schema', async () => {
    const result = await run(['migrate', '--db', db]);
    expect(result.code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it('customers add reads the password from stdin and drops exactly one trailing newline', async () => {
    const result = await run(
      [
        'customers',
        'add',
        '--email',
        'Cli@Example.com',
        '--name',
        'Cli User',
        '--password-stdin',
        '--db',
        db,
      ],
      'pass word \n',
    );
    expect(result.code).toBe(0);
    const store = openStore({ db });
    try {
      const customer = await store.findCustomerByEmail('cli@example.com');
      expect(customer?.name).toBe('Cli User');
      expect(await verifyPassword('pass word ', customer?.passwordHash ?? '')).toBe(true);
      expect(await verifyPassword('pass word \n', customer?.passwordHash ?? '')).toBe(false);
      expect(customer?.passwordHash).toMatch(/^\$scrypt\$ln=\d+,r=\d+,p=\d+\$/);
    } finally {
      await store.close();
    }
  });

  it('customers add refuses a taken email and a missing --password-stdin with status 2', async () => {
    const taken = await run(
      ['customers', 'add', '--email', 'cli@example.com', '--name', 'X', '--password-stdin', '--db', db],
      'another password\n',
    );
    expect(taken.code).toBe(2);
    const noStdin = await run(['customers', 'add', '--email', 'new@example.com', '--name', 'X', '--db', db]);
    expect(noStdin.code).toBe(2);
  });

  it('refuses an invalid --rate-limit with status 2', async () => {
    const result = await run(['serve', '--port', '0', '--rate-limit', '-1', '--db', db]);
    expect(result.code).toBe(2);
  });

  it('serve --port 0 prints listening on, serves its metadata, and customers add and keys rotate work beside it', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--db', db], { cwd: ROOT, env: cleanEnv() });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /^listening on (http:\/\/\S+)$/m.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const metadata = (await (await fetch(`${url}/.well-known/openid-configuration`)).json()) as {
        issuer: string;
      };
      expect(metadata.issuer).toBe(url);
      const before = (await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
      expect(before.keys).toHaveLength(2);

      const added = await run(
        [
          'customers',
          'add',
          '--email',
          'second@example.com',
          '--name',
          'Second',
          '--password-stdin',
          '--db',
          db,
        ],
        'second password\n',
      );
      expect(added.code).toBe(0);
      const rotated = await run(['keys', 'rotate', '--db', db]);
      expect(rotated.code).toBe(0);
      const store = openStore({ db });
      try {
        expect(await store.listKeys()).toHaveLength(4);
      } finally {
        await store.close();
      }
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      expect(await exited).toBe(0);
      clearTimeout(timer);
    }
  });
});
