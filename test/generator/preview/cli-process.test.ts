/**
 * `agent-catalog preview` as a real process: the compiled CLI (`lib/`, built by
 * `npm test`'s pretest step, or here when missing) prints `listening on <url>`, serves,
 * logs one line per request on stderr, and exits 0 on SIGTERM or SIGINT; a directory that
 * is not a bundle exits 2.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { runToExit, startCli } from './preview-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('agent-catalog preview as a process', () => {
  let bundle: TempBundle;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'lib', 'generator', 'preview', 'server.js'))) {
      // Others' work in progress may not type-check; tsc still emits, which is all this needs.
      await promisify(execFile)('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT }).catch(
        () => undefined,
      );
    }
    bundle = await writeTempBundle(makeFixtureBundle());
  }, 120_000);
  afterAll(async () => {
    await bundle?.cleanup();
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'when it is sent %s after serving then it exits 0',
    async (signal) => {
      const running = await startCli(['--port', '0', '--dir', bundle.dir]);
      try {
        expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const res = await rawRequest(running.url, '/agent-catalog');
        expect(res.status).toBe(200);
        expect(header(res, 'access-control-allow-origin')).toBe('*');
        running.child.kill(signal);
        expect(await running.exit).toBe(0);
        expect(running.stderr()).toMatch(/^GET \/agent-catalog 200 [\d.]+ms$/m);
      } finally {
        running.child.kill('SIGKILL');
      }
    },
  );

  it('when --quiet is given then no request is logged', async () => {
    const running = await startCli(['--port', '0', '--dir', bundle.dir, '--quiet']);
    try {
      await rawRequest(running.url, '/llms.txt');
      running.child.kill('SIGTERM');
      expect(await running.exit).toBe(0);
      expect(running.stderr()).toBe('');
    } finally {
      running.child.kill('SIGKILL');
    }
  });

  it('when --rate-limit 2 is given then the third request in a minute gets 429', async () => {
    const running = await startCli(['--port', '0', '--dir', bundle.dir, '--rate-limit', '2', '--quiet']);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await rawRequest(running.url, '/agent-catalog')).status);
      expect(statuses).toEqual([200, 200, 429]);
      running.child.kill('SIGTERM');
      expect(await running.exit).toBe(0);
    } finally {
      running.child.kill('SIGKILL');
    }
  });

  it('when --dir does not exist then it exits 2 without listening', async () => {
    const result = await runToExit(['--port', '0', '--dir', join(tmpdir(), 'agent-catalog-missing-dir')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--dir');
  });

  it('when the directory has no _headers then it exits 2', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'agent-catalog-empty-'));
    try {
      const result = await runToExit(['--port', '0', '--dir', empty]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
