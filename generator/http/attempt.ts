/**
 * One HTTP attempt's outcome, for the client in `client.ts`: reading a response into a
 * JSON document under the size cap (Content-Length first, then while streaming, aborting
 * the body as soon as it is over), and turning whatever went wrong into a CatalogError
 * with a stable UPSTREAM_* code plus whether another attempt could help.
 */
import type { Dispatcher } from 'undici';
import { CatalogError, type CatalogErrorCode } from '../errors.js';
import { describeNotJsonFix, describeSizeFix, looksLikeHtml } from '../sources/advice.js';
import { isRetryableStatus, parseRetryAfterMs } from './retry.js';

export interface JsonResponse {
  url: string;
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: unknown;
}

/** A failed attempt, with what the retry loop needs to decide on another one. */
export class AttemptError extends Error {
  constructor(
    readonly error: CatalogError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(error.message, { cause: error });
  }
}

const NETWORK_TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function upstreamError(
  code: CatalogErrorCode,
  message: string,
  url: string,
  extra: object,
  cause?: unknown,
) {
  return new CatalogError(code, message, { url, status: undefined, ...extra }, { cause });
}

async function readCappedBody(
  body: Dispatcher.ResponseData['body'],
  url: string,
  status: number,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > maxBytes) {
      // Stop reading at once: a runaway body must not fill memory before we refuse it.
      body.destroy();
      const message = `upstream response from ${url} is larger than ${maxBytes} bytes${describeSizeFix(maxBytes)}`;
      throw upstreamError('UPSTREAM_TOO_LARGE', message, url, {
        status,
        maxBytes,
        field: 'upstream.max_response_bytes',
      });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function parseJsonBody(buffer: Buffer, url: string, status: number): unknown {
  const text = buffer.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (cause) {
    const html = looksLikeHtml(text);
    throw upstreamError(
      'UPSTREAM_SHAPE',
      `upstream response from ${url} is not valid JSON${describeNotJsonFix(url, text)}`,
      url,
      { status, ...(html ? { html } : {}) },
      cause,
    );
  }
}

/** A non-2xx answer becomes UPSTREAM_HTTP (retryable for 429 and 5xx), its body drained up to 64 KiB. */
export async function assertOk(response: Dispatcher.ResponseData, url: string): Promise<void> {
  const status = response.statusCode;
  if (status >= 200 && status <= 299) return;
  await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  const error = upstreamError('UPSTREAM_HTTP', `upstream answered ${status} for ${url}`, url, { status });
  const retryAfter = flattenHeaders(response.headers)['retry-after'];
  throw new AttemptError(error, isRetryableStatus(status), parseRetryAfterMs(retryAfter, Date.now()));
}

/** Reads a response: non-2xx becomes UPSTREAM_HTTP (retryable for 429 and 5xx), the rest JSON. */
export async function readJsonResponse(
  response: Dispatcher.ResponseData,
  url: string,
  maxBytes: number,
): Promise<JsonResponse> {
  await assertOk(response, url);
  const headers = flattenHeaders(response.headers);
  const status = response.statusCode;
  const declared = Number.parseInt(headers['content-length'] ?? '', 10);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    const message = `upstream response from ${url} declares ${declared} bytes, over ${maxBytes}${describeSizeFix(maxBytes)}`;
    throw upstreamError('UPSTREAM_TOO_LARGE', message, url, {
      status,
      maxBytes,
      field: 'upstream.max_response_bytes',
    });
  }
  const buffer = await readCappedBody(response.body, url, status, maxBytes);
  return { url, status, headers, body: parseJsonBody(buffer, url, status) };
}

export interface FailureState {
  /** The overall deadline has passed. */
  deadlinePassed: boolean;
  timeoutMs: number;
  /** Set when the caller cancelled the request. */
  cancelReason?: unknown;
}

/** Turns whatever an attempt threw into a CatalogError and whether a retry may help. */
export function classifyFailure(error: unknown, url: string, state: FailureState): AttemptError {
  if (error instanceof AttemptError) return error;
  if (error instanceof CatalogError) return new AttemptError(error, false);
  if (state.deadlinePassed) {
    const message = `upstream fetch did not finish within ${state.timeoutMs} ms (at ${url}); raise upstream.timeout_ms for a slow or large store`;
    return new AttemptError(
      upstreamError('UPSTREAM_TIMEOUT', message, url, { timeoutMs: state.timeoutMs }, error),
      false,
    );
  }
  if ('cancelReason' in state) {
    const message = `upstream request to ${url} was cancelled`;
    return new AttemptError(
      upstreamError('UPSTREAM_NETWORK', message, url, { cancelled: true }, state.cancelReason),
      false,
    );
  }
  const code = errorCode(error);
  const isTimeout =
    (error instanceof Error && error.name === 'TimeoutError') ||
    (code !== undefined && NETWORK_TIMEOUT_CODES.has(code));
  if (isTimeout) {
    const message = `upstream request to ${url} timed out`;
    return new AttemptError(upstreamError('UPSTREAM_TIMEOUT', message, url, { code }, error), true);
  }
  const message = `upstream request to ${url} failed: ${error instanceof Error ? error.message : String(error)}`;
  return new AttemptError(upstreamError('UPSTREAM_NETWORK', message, url, { code }, error), true);
}
