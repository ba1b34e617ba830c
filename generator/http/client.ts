/**
 * The one HTTP client of the generator and the only module that imports undici. It
 * fetches JSON documents from the merchant's store under a connect timeout, a
 * per-request timeout, an overall deadline for the whole crawl, a response size cap
 * (checked against Content-Length and again while streaming), bounded retries on 5xx,
 * 429 and network errors (honouring Retry-After), a descriptive User-Agent and the
 * politeness limits of `limiter.ts`. Every failure becomes a CatalogError with a stable
 * UPSTREAM_* code and `{ url, status }` details, so a build can exit 1 and say why.
 */
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { CatalogError, type CatalogErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { createRequestLimiter, type LimiterClock, systemClock } from './limiter.js';
import { isRetryableStatus, parseRetryAfterMs, planRetryDelayMs } from './retry.js';

export interface HttpClientOptions {
  userAgent: string;
  connectTimeoutMs: number;
  /** Time for one request, body included. */
  requestTimeoutMs: number;
  /** Overall deadline for everything this client does, from its creation. */
  timeoutMs: number;
  retries: number;
  maxResponseBytes: number;
  maxConcurrency: number;
  requestsPerMinute: number;
  logger: Logger;
  signal?: AbortSignal;
  random?: () => number;
  clock?: LimiterClock;
}

export interface JsonResponse {
  url: string;
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: unknown;
}

export interface HttpClient {
  /** GETs a JSON document; `signal` lets a caller cancel requests it no longer needs. */
  getJson(url: string, signal?: AbortSignal): Promise<JsonResponse>;
  /** Requests started, retries included. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A failed attempt, with what the retry loop needs to decide on another one. */
class AttemptError extends Error {
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

function upstreamError(code: CatalogErrorCode, message: string, url: string, extra: object, cause?: unknown) {
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
      const message = `upstream response from ${url} is larger than ${maxBytes} bytes`;
      throw upstreamError('UPSTREAM_TOO_LARGE', message, url, { status, maxBytes });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function parseJsonBody(buffer: Buffer, url: string, status: number): unknown {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch (cause) {
    throw upstreamError(
      'UPSTREAM_SHAPE',
      `upstream response from ${url} is not valid JSON`,
      url,
      { status },
      cause,
    );
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const clock = options.clock ?? systemClock;
  const deadlineAt = clock.now() + options.timeoutMs;
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(
    () => deadline.abort(new Error('upstream deadline passed')),
    options.timeoutMs,
  );
  deadlineTimer.unref();
  const limiter = createRequestLimiter({
    maxConcurrency: options.maxConcurrency,
    requestsPerMinute: options.requestsPerMinute,
    clock,
  });
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
    connections: options.maxConcurrency,
  });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 3 }));

  async function attempt(url: string, signal: AbortSignal): Promise<JsonResponse> {
    const started = clock.now();
    const response = await request(url, {
      method: 'GET',
      dispatcher,
      signal,
      headers: { accept: 'application/json', 'user-agent': options.userAgent },
    });
    const headers = flattenHeaders(response.headers);
    const status = response.statusCode;
    options.logger.debug(`GET ${url} → ${status} (${clock.now() - started} ms)`);
    if (status < 200 || status > 299) {
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const error = upstreamError('UPSTREAM_HTTP', `upstream answered ${status} for ${url}`, url, { status });
      const retryAfterMs = parseRetryAfterMs(headers['retry-after'], Date.now());
      throw new AttemptError(error, isRetryableStatus(status), retryAfterMs);
    }
    const declared = Number.parseInt(headers['content-length'] ?? '', 10);
    if (Number.isFinite(declared) && declared > options.maxResponseBytes) {
      response.body.destroy();
      const message = `upstream response from ${url} declares ${declared} bytes, over ${options.maxResponseBytes}`;
      throw upstreamError('UPSTREAM_TOO_LARGE', message, url, { status, maxBytes: options.maxResponseBytes });
    }
    const buffer = await readCappedBody(response.body, url, status, options.maxResponseBytes);
    return { url, status, headers, body: parseJsonBody(buffer, url, status) };
  }

  /** Turns whatever an attempt threw into a CatalogError and whether a retry may help. */
  function classify(error: unknown, url: string, callerSignal: AbortSignal | undefined): AttemptError {
    if (error instanceof AttemptError) return error;
    if (error instanceof CatalogError) return new AttemptError(error, false);
    if (deadline.signal.aborted) {
      const message = `upstream fetch did not finish within ${options.timeoutMs} ms (at ${url})`;
      return new AttemptError(
        upstreamError('UPSTREAM_TIMEOUT', message, url, { timeoutMs: options.timeoutMs }, error),
        false,
      );
    }
    if (callerSignal?.aborted || options.signal?.aborted) {
      const reason = callerSignal?.aborted ? callerSignal.reason : options.signal?.reason;
      const message = `upstream request to ${url} was cancelled`;
      return new AttemptError(
        upstreamError('UPSTREAM_NETWORK', message, url, { cancelled: true }, reason),
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

  /** One attempt under a fresh per-request timeout, which starts only once the limiter lets it go. */
  function scheduleAttempt(url: string, waitSignal: AbortSignal): Promise<JsonResponse> {
    return limiter.schedule(
      () => attempt(url, AbortSignal.any([waitSignal, AbortSignal.timeout(options.requestTimeoutMs)])),
      waitSignal,
    );
  }

  async function getJson(url: string, signal?: AbortSignal): Promise<JsonResponse> {
    const signals = [deadline.signal];
    if (signal) signals.push(signal);
    if (options.signal) signals.push(options.signal);
    const waitSignal = AbortSignal.any(signals);
    let failure = new AttemptError(
      upstreamError('UPSTREAM_NETWORK', `no attempt made for ${url}`, url, {}),
      false,
    );
    for (let attemptNumber = 0; attemptNumber <= options.retries; attemptNumber++) {
      try {
        return await scheduleAttempt(url, waitSignal);
      } catch (error) {
        failure = classify(error, url, signal);
      }
      if (!failure.retryable || attemptNumber === options.retries) break;
      const delay = planRetryDelayMs({
        attempt: attemptNumber,
        retryAfterMs: failure.retryAfterMs,
        remainingMs: deadlineAt - clock.now(),
        random: options.random,
      });
      if (delay === undefined) break;
      options.logger.info(`retrying ${url} in ${delay} ms after: ${failure.error.message}`);
      try {
        await clock.sleep(delay, waitSignal);
      } catch (cause) {
        throw classify(cause, url, signal).error;
      }
    }
    throw failure.error;
  }

  return {
    getJson,
    get requests() {
      return limiter.started;
    },
    async close() {
      clearTimeout(deadlineTimer);
      // destroy, not close: a hanging upstream must not keep the build alive.
      await agent.destroy();
    },
  };
}
