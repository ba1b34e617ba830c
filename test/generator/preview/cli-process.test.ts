/**
 * `agent-catalog preview` as a real process: the compiled CLI (`lib/`, built by
 * `npm test`'s pretest step, or here when missing) prints `listening on <url>`, serves,
 * logs one line per request on stderr, and exits 0 on SIGTERM or SIGINT; a directory that
 * is not a bundle exits 2. `agent-catalog serve` is the same server for a merchant's own
 * machine: a generated bundle, its live paths answered by the live handler within bounds.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type Running, runToExit, startCli } from './preview-process.js';

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

/** Sends headers and the start of a body, then nothing: the server must give up within its bound. */
function sendEndlessBody(baseUrl: string, path: string): Promise<{ status: number | undefined; ms: number }> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    const req = httpRequest({
      host: hostname,
      port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      agent: false,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Date.now() - started }));
    });
    req.on('error', () => resolve({ status: undefined, ms: Date.now() - started }));
    req.write('{"jsonrpc": "2.0", ');
  });
}

describe('agent-catalog serve as a process', () => {
  let bundle: TempBundle;
  let running: Running | undefined;

  beforeAll(async () => {
    bundle = await writeTempBundle(emitBundle(makeSamplePlan()));
    running = await startCli(['--port', '0', '--dir', bundle.dir, '--quiet'], 'serve');
  }, 120_000);
  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await bundle?.cleanup();
  });

  const url = (): string => {
    if (running === undefined) throw new Error('not running');
    return running.url;
  };

  it('when it starts then it prints listening on a loopback URL and serves the static documents', async () => {
    expect(url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await rawRequest(url(), '/agent-catalog');
    expect(res.status).toBe(200);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
  });

  it('when a live path is posted to then the live handler answers it, not the static server', async () => {
    const res = await rawRequest(url(), '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).not.toBe(405);
    expect(header(res, 'allow')).toBeUndefined();
  });

  it('when a 1 MB query is posted to a live path then it is 413', async () => {
    const res = await rawRequest(url(), '/ucp/catalog/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ catalog: { query: 'x'.repeat(1024 * 1024 + 1) } }),
    });
    expect(res.status).toBe(413);
  });

  it('when a body never ends then the request is cut off within the contract bound of 10 s', async () => {
    const answer = await sendEndlessBody(url(), '/ucp/catalog/search');
    expect(answer.status === undefined || answer.status === 408).toBe(true);
    expect(answer.ms).toBeLessThan(12_000);
  }, 20_000);

  it("when a host's own file is requested then it is 404", async () => {
    for (const path of ['/_worker.js', '/_routes.json', '/.netlify-functions/agent-catalog-live.mjs']) {
      expect((await rawRequest(url(), path)).status, path).toBe(404);
    }
  });

  it('when it is sent SIGTERM then it exits 0', async () => {
    running?.child.kill('SIGTERM');
    expect(await running?.exit).toBe(0);
  });
});
