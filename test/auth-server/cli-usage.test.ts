/**
 * The issuer's command line answers a newcomer's mistakes as the generator's does (issue
 * 24): `--help` shows every command, that `serve` is the default and its main options; an
 * unknown option or command exits 2 with the nearest name and the usage; a password given
 * as a flag is refused with the flag that reads it from stdin, before any database is opened.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type RunResult, runCli } from './helpers/run-cli.js';

let dir: string;

/** Runs in an empty folder, so any file a refused command wrote would show. */
function run(args: string[]): Promise<RunResult> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AUTH_') || name === 'PORT') delete env[name];
  return runCli(args, { cwd: dir, env });
}

beforeAll(async () => {
  expect(existsSync(CLI), `${CLI}: run npm run compile first`).toBe(true);
  dir = await mkdtemp(join(tmpdir(), 'agent-auth-usage-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('agent-auth --help', () => {
  it('lists the commands, says serve is the default, and shows its main options with --dev', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'customers', 'keys', 'migrate']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(result.stdout).toMatch(/without a command, agent-auth runs `serve`/i);
    for (const option of ['--dev', '--port <port>', '--db <url-or-path>', '--catalog-config <path>']) {
      expect(result.stdout).toContain(option);
    }
  });
});

describe('agent-auth usage mistakes exit 2', () => {
  it('when an option of serve is mistyped then it exits 2 suggesting the real one, with the usage', async () => {
    const result = await run(['--prot', '4001']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--prot'");
    expect(result.stderr).toContain('--port?');
    expect(result.stderr).toMatch(/^Usage: agent-auth serve/m);
    expect(result.stdout).not.toContain('listening on');
  });

  it('when a command is mistyped then it exits 2 naming the nearest command instead of starting serve', async () => {
    const result = await run(['custmers', 'add']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'custmers'");
    expect(result.stderr).toContain('customers?');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('when a subcommand is mistyped then it exits 2 with the suggestion', async () => {
    const result = await run(['keys', 'rotte']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rotate?');
  });

  it.each([['--password', 'x'], ['--password=x'], ['--password']])(
    'when customers add is given %s then it exits 2 pointing to --password-stdin, creating nothing',
    async (...flag) => {
      const result = await run(['customers', 'add', '--email', 'ann@example.com', '--name', 'Ann', ...flag]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('passwords are read from stdin: --password-stdin');
      expect(result.stdout).toBe('');
      expect(existsSync(join(dir, 'data'))).toBe(false);
    },
  );
});
