/**
 * A loopback stand-in for the rebuild endpoints the receiver triggers, built from their
 * documented shapes: a Netlify build hook (`POST /build_hooks/<id>`, any body, 200), a
 * Cloudflare Pages deploy hook (`POST /client/v4/pages/webhooks/deploy_hooks/<id>`, 200
 * with a JSON result) and GitHub's `POST /repos/{owner}/{repo}/dispatches` (JSON body with
 * `event_type`, `Authorization: Bearer`, 204; 401 without a token, 422 without
 * `event_type`). It records every request, so tests count triggers. `failFirst` answers the
 * first n requests 503, `redirect` answers every request 307 elsewhere.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TriggerCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TriggerStandIn {
  origin: string;
  calls: TriggerCall[];
  /** Resolves once `count` calls have arrived (or rejects after `timeoutMs`). */
  waitForCalls(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const GITHUB_TOKEN = 'ghp_stand-in-token-never-printed';

function answerGitHub(call: TriggerCall): { status: number; body: string } {
  if (call.headers.authorization !== `Bearer ${GITHUB_TOKEN}`) {
    return { status: 401, body: JSON.stringify({ message: 'Bad credentials' }) };
  }
  const parsed: unknown = JSON.parse(call.body || 'null');
  const eventType =
    typeof parsed === 'object' && parsed !== null && 'event_type' in parsed ? parsed.event_type : undefined;
  if (typeof eventType !== 'string' || eventType === '') {
    return {
      status: 422,
      body: JSON.stringify({ message: 'Invalid request. "event_type" wasn\'t supplied.' }),
    };
  }
  return { status: 204, body: '' };
}

export async function startTriggerStandIn(
  options: { failFirst?: number; redirect?: boolean } = {},
): Promise<TriggerStandIn> {
  const calls: TriggerCall[] = [];
  const waiters: (() => void)[] = [];
  let failuresLeft = options.failFirst ?? 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    calls.push(call);
    for (const wake of waiters.splice(0)) wake();
    if (options.redirect) {
      res.writeHead(307, { location: `${origin}/elsewhere` }).end();
      return;
    }
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      res.writeHead(503).end('busy');
      return;
    }
    if (call.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const answer = /^\/repos\/[^/]+\/[^/]+\/dispatches$/.test(call.path)
      ? answerGitHub(call)
      : { status: 200, body: JSON.stringify({ success: true, result: { id: 'stand-in-build' } }) };
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    calls,
    async waitForCalls(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (calls.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} trigger(s), got ${calls.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
