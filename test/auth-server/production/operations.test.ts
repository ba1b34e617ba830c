/**
 * The issuer as an operator runs it, in real processes: flag and environment errors exit 2
 * naming what to fix, SIGTERM finishes a request in flight before exiting 0, and the JSON
 * log lines carry the request id the response echoed.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from './helpers/http.js';
import { compileIssuer, runCli, spawnIssuer } from './helpers/processes.js';

let dir: string;

beforeAll(async () => {
  await compileIssuer();
  dir = await mkdtemp(join(tmpdir(), 'agent-auth-ops-'));
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('configuration errors', () => {
  it.each([
    [['--rate-limit', '-1'], '--rate-limit'],
    [['--rate-limit', 'lots'], '--rate-limit'],
    [['--trust-proxy', '*'], '--trust-proxy'],
    [['--trust-proxy', '10.0.0.0/99'], '--trust-proxy'],
    [['--registration-limit', '1.5'], '--registration-limit'],
    [['--issuer', 'ftp://x'], '--issuer'],
  ])('serve %j exits 2 naming %s', async (flags, named) => {
    const result = await runCli(['serve', '--port', '0', '--db', join(dir, 'bad.sqlite'), ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(named);
  });

  it('a bad AUTH_TRUST_PROXY in the environment exits 2 naming the variable', async () => {
    const issuer = spawnIssuer(['--db', join(dir, 'env.sqlite')], { AUTH_TRUST_PROXY: 'everyone' });
    await expect(issuer).rejects.toThrow(/AUTH_TRUST_PROXY/);
  });
});

function waitFor(socket: Socket, pattern: RegExp, seen: { text: string }): Promise<void> {
  return new Promise((resolveWait, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within 10 s: ${seen.text}`)), 10_000);
    const check = () => {
      if (pattern.test(seen.text)) {
        clearTimeout(timer);
        socket.off('data', check);
        resolveWait();
      }
    };
    socket.on('data', check);
    check();
  });
}

async function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveProbe) => {
    const probe = connect(Number(port), hostname);
    probe.once('connect', () => {
      probe.destroy();
      resolveProbe(false);
    });
    probe.once('error', () => resolveProbe(true));
  });
}

describe('graceful shutdown', () => {
  it('on SIGTERM the issuer stops accepting, finishes the request in flight, and exits 0', async () => {
    const issuer = await spawnIssuer(['--db', join(dir, 'drain.sqlite')]);
    const { clientId } = await register(issuer.url);
    const body = new URLSearchParams({ token: 'unknown-token', client_id: clientId }).toString();
    const { hostname, port } = new URL(issuer.url);
    const socket = connect(Number(port), hostname);
    const seen = { text: '' };
    socket.on('data', (chunk: Buffer) => {
      seen.text += chunk.toString('utf8');
    });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    // Expect: 100-continue makes the server say when it holds the request (headers parsed).
    socket.write(
      `POST /oauth/revoke HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nX-Request-Id: drain-test-1\r\n\r\n`,
    );
    await waitFor(socket, /100 Continue/, seen);

    issuer.child.kill('SIGTERM');
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await refusesConnections(issuer.url);
      if (!refused) await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused).toBe(true);
    expect(issuer.child.exitCode).toBeNull();

    socket.write(body);
    await waitFor(socket, /HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n/, seen);
    expect(await issuer.exited).toBe(0);
    socket.destroy();

    const logged = issuer.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      logged.some((l) => l.msg === 'request' && l.requestId === 'drain-test-1' && l.status === 200),
    ).toBe(true);
  });

  it('SIGINT also exits 0', async () => {
    const issuer = await spawnIssuer(['--db', join(dir, 'sigint.sqlite')]);
    expect(await issuer.stop('SIGINT')).toBe(0);
  });
});
