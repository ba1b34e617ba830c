/**
 * The Node shell, used by `preview` and `serve`: turns a `node:http` request into a
 * web-standard `Request` for the core and writes the core's `Response` back. The body is
 * read whole before the core sees it, bounded in size (413 past the limit) and in time
 * (408 when it has not ended within the limit: a body that never ends must not hold a
 * connection; CONTRACT.md, "MCP and UCP shapes"); a request the web platform cannot
 * represent (a header value `Headers` refuses) is 400. Never a 5xx for the client's mistake.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AssetBytesReader,
  type AssetOpener,
  type AssetReader,
  createLiveContext,
  DEFAULT_BODY_LIMITS,
  HOOK_BODY_LIMITS,
  type HookRuntime,
  handleLiveRequest,
  isHookPathname,
} from './core.js';
import { unpackingGzip } from './node-gunzip.js';

export interface NodeLiveOptions {
  /** Read again on every request: preview picks up a rebuilt bundle without a restart. */
  readAsset: AssetReader;
  /** The same files as bytes (the search index's `.bin` files). */
  readAssetBytes: AssetBytesReader;
  /** Streams a bundle file (a parted document's part); without it no parted document is served. */
  openAsset?: AssetOpener;
  /**
   * The origin requests are addressed to; by default the address the connection came in on
   * (`http://127.0.0.1:8080`), since the Host header is the client's to choose.
   */
  origin?: string;
  bodyLimitBytes?: number;
  bodyTimeoutMs?: number;
  /** Milliseconds since the epoch for access-token expiry; tests move it. */
  now?: () => number;
  /** The webhook receiver's state, built once from the process's environment; undefined when off. */
  hooks?: HookRuntime;
}

type BodyResult = { ok: true; body: Buffer | undefined } | { ok: false; status: 408 | 413 };

/** Reads the whole body within the size and time limits. */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<BodyResult> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve({ ok: true, body: undefined });
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve({ ok: false, status: 413 });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish({ ok: false, status: 413 });
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: Buffer.concat(chunks) });
    const onError = (): void => finish({ ok: false, status: 408 });
    const timer = setTimeout(() => finish({ ok: false, status: 408 }), timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

function localOrigin(req: IncomingMessage): string {
  const host = req.socket.localAddress ?? '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort ?? 80}`;
}

function toHeaders(req: IncomingMessage): Headers | undefined {
  const headers = new Headers();
  try {
    for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
      headers.append(req.rawHeaders[index] ?? '', req.rawHeaders[index + 1] ?? '');
    }
  } catch {
    return undefined;
  }
  return headers;
}

function sendStatus(res: ServerResponse, status: number, message: string, close: boolean): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify({ error: message }));
}

/** Writes the core's answer, streaming its body (an MCP answer may be an event stream). */
export async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  head: boolean,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, response.statusText, headers);
  if (head || response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/**
 * `(req, res) => handled`: false when the core does not claim the path (the caller then
 * serves the static file), true once it has answered.
 */
export function createNodeLiveHandler(
  options: NodeLiveOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  // The core's own limits, applied before the body is buffered for it.
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMITS.maxBytes;
  const timeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.deadlineMs;
  return async (req, res) => {
    const headers = toHeaders(req);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', options.origin ?? localOrigin(req));
    } catch {
      sendStatus(res, 400, 'bad request target', false);
      return true;
    }
    // A webhook delivery may carry a whole product (1 MiB); every other live body is small.
    const body = await readBody(
      req,
      isHookPathname(url.pathname) ? HOOK_BODY_LIMITS.maxBytes : limit,
      timeoutMs,
    );
    if (!body.ok) {
      const message = body.status === 413 ? 'request body too large' : 'request body not received in time';
      // The rest of the body is not read: the connection cannot carry another request.
      sendStatus(res, body.status, message, true);
      return true;
    }
    if (headers === undefined) {
      sendStatus(res, 400, 'a request header cannot be read', false);
      return true;
    }
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      body: body.body === undefined ? undefined : new Uint8Array(body.body),
    });
    // The manifest is small and read per request, so a rebuild's new settings apply at once.
    const read = await createLiveContext({
      ...options,
      readAssetBytes: unpackingGzip(options.readAssetBytes),
    });
    const context = read && {
      ...read,
      ...(options.openAsset ? { openAsset: options.openAsset } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
    };
    const answer = context && (await handleLiveRequest(request, context));
    if (answer === undefined) return false;
    await writeWebResponse(res, answer, req.method === 'HEAD');
    return true;
  };
}
