/**
 * Issue 24: `check <url>` where nothing answers says so once, with the cause and a hint,
 * and exits 1, instead of one `fetch failed` per document. The closed port and the silent
 * server are real loopback sockets; a name that does not resolve is covered through the
 * cause mapping alone, since looking one up could leave the machine.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleSite } from '../../../generator/check/read-site.js';
import { describeFetchFailure, unreachableHint } from '../../../generator/check/unreachable.js';
import { isCatalogError } from '../../../generator/errors.js';
import { ensureCompiled, runCli } from '../cli/run-cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new TypeError('not a TCP server');
  return address.port;
}

/** A loopback port that was just free and is closed again: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('agent-catalog check <url> when nothing answers', () => {
  beforeAll(() => ensureCompiled(), 120_000);

  it('when the port is closed then it exits 1 with one line: connection refused, and is preview running', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCli(['check', target], { cwd: ROOT });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(target);
    expect(lines[0]).toContain('connection refused');
    expect(lines[0]).toContain('is npm run preview running?');
    expect(run.stderr).not.toContain('fetch failed');
  });
});

describe('a site that accepts connections but never answers', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  let port = 0;

  beforeAll(async () => {
    port = await listen(silent);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('when the first request times out then reading stops with SITE_UNREACHABLE naming the timeout', async () => {
    const error = await readBundleSite(`http://127.0.0.1:${port}`, { timeoutMs: 300 }).catch(
      (caught: unknown) => caught,
    );
    expect(isCatalogError(error, 'SITE_UNREACHABLE')).toBe(true);
    expect(isCatalogError(error) && error.details.cause).toMatch(/timeout/);
  });
});

/** A rejection shaped as undici's fetch makes it: `TypeError('fetch failed')` with the system error as cause. */
function fetchFailed(code: string, message: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

describe('describeFetchFailure', () => {
  it.each([
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND shop.invalid', 'no such host'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', 'connection refused'],
    ['ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443', 'connection timed out'],
    ['UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error', 'connection timed out'],
  ])('when the cause is %s then it says %s', (code, message, expected) => {
    expect(describeFetchFailure(fetchFailed(code, message))).toBe(expected);
  });

  it('when the cause has no known code then its own message is given, not "fetch failed"', () => {
    expect(describeFetchFailure(fetchFailed('EWHATEVER', 'something odd'))).toBe('something odd');
  });
});

describe('unreachableHint', () => {
  it('when the target is on loopback then it asks whether the preview runs', () => {
    for (const target of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      expect(unreachableHint(target), target).toBe('is npm run preview running?');
    }
  });

  it('when the target is another host then it does not mention the preview', () => {
    expect(unreachableHint('https://shop.example')).not.toContain('preview');
  });
});
