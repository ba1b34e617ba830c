/**
 * A body that never ends is cut off within the contract's 10 s on every shell (CONTRACT.md,
 * "MCP and UCP shapes"). The deadline must sit below the bound, not on it: a deadline of
 * exactly 10 s answered at 10.02 to 10.08 s, since the 408 still has to be written and
 * travel. Time is moved by fake timers (no wall-clock assertion): at 9 s, a second before
 * the bound, every shell has already answered 408.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifactBytes } from '../../generator/compact-artifact.js';
import cloudflareShell from '../../live/shells/cloudflare-pages.js';
import { createNodeLiveHandler } from '../../live/shells/node-http.js';
import type { LiveBundle } from './live-bundle.js';
import { assetFilesOf, liveFetch } from './live-bundle.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';

const CONTRACT_BOUND_MS = 10_000;
/** Time left before the bound for the answer to be written and to travel. */
const MARGIN_MS = 1_000;

let bundle: LiveBundle;
beforeAll(async () => {
  bundle = await syntheticLiveBundle(5);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A request whose body sends its first bytes and then nothing, forever. */
function endlessSearch(): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"catalog":'));
    },
  });
  return new Request(`${bundle.baseUrl}/ucp/catalog/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** The status the answer has once fake time reaches the bound less the margin; undefined if none yet. */
async function statusBeforeBound(answer: Promise<{ status: number }>): Promise<number | undefined> {
  let status: number | undefined;
  void answer.then((response) => {
    status = response.status;
  });
  await vi.advanceTimersByTimeAsync(CONTRACT_BOUND_MS - MARGIN_MS);
  return status;
}

describe('a body that never ends', () => {
  it('is answered 408 before the 10 s bound by the core with its default limits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = liveFetch(bundle);
    expect(await statusBeforeBound(call(endlessSearch()))).toBe(408);
  });

  it('is answered 408 before the 10 s bound by the Cloudflare Pages shell', async () => {
    const files = new Map(bundle.artifacts.map((artifact) => [artifact.path, artifactBytes(artifact)]));
    const env = {
      ASSETS: {
        fetch: async (input: Request | string) => {
          const path = new URL(typeof input === 'string' ? input : input.url).pathname.slice(1);
          const body = files.get(path);
          return body === undefined
            ? new Response('not found', { status: 404 })
            : new Response(new Uint8Array(body));
        },
      },
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await statusBeforeBound(cloudflareShell.fetch(endlessSearch(), env))).toBe(408);
  });

  it('is answered 408 before the 10 s bound by the Node shell (preview and serve) over a real socket', async () => {
    const handle = createNodeLiveHandler({
      ...assetFilesOf(bundle.artifacts),
      origin: new URL(bundle.baseUrl).origin,
    });
    const server = createServer((req, res) => {
      void handle(req, res).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    // Fake timers before the request arrives: the shell starts its deadline when it does.
    // Node's sockets and HTTP parser keep their own internal timers, so only the shell's moves.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const received = new Promise<void>((resolve) => server.once('request', () => resolve()));
    let status: number | undefined;
    const answer = new Promise<void>((resolve) => {
      const client = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: new URL(`${bundle.baseUrl}/ucp/catalog/search`).pathname,
        },
        (response) => {
          status = response.statusCode;
          response.resume();
          resolve();
        },
      );
      // A reset after the answer (the shell closes a connection whose body it did not read) is expected.
      client.on('error', () => resolve());
      client.setHeader('content-type', 'application/json');
      client.write('{"catalog":');
    });
    try {
      await received;
      await vi.advanceTimersByTimeAsync(CONTRACT_BOUND_MS - MARGIN_MS);
      // The 408 crosses a real socket: give the event loop turns (setImmediate is not faked),
      // boundedly, so a shell that has not answered fails here instead of hanging.
      let answered = false;
      void answer.then(() => {
        answered = true;
      });
      for (let turn = 0; turn < 2_000 && !answered; turn++) await new Promise((next) => setImmediate(next));
      expect(status).toBe(408);
    } finally {
      vi.useRealTimers();
      server.closeAllConnections();
      server.close();
    }
  });
});
