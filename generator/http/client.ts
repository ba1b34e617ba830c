/**
 * The one HTTP client of the generator (`generator/http/` is the only place that imports
 * undici). It fetches JSON documents from the merchant's store under a connect timeout, a
 * per-request timeout, an overall deadline for the whole crawl, a response size cap
 * (checked against Content-Length and again while streaming), bounded retries on 5xx,
 * 429 and network errors (honouring Retry-After), a descriptive User-Agent and the
 * politeness limits of `limiter.ts`. Every failure becomes a CatalogError with a stable
 * UPSTREAM_* code and `{ url, status }` details, so a build can exit 1 and say why.
 */

import { Agent, interceptors, request } from 'undici';
import type { Logger } from '../logger.js';
import {
  AttemptError,
  assertOk,
  classifyFailure,
  type JsonResponse,
  readJsonResponse,
  upstreamError,
} from './attempt.js';
import { createRequestLimiter, type LimiterClock, systemClock } from './limiter.js';
import { redactUrl } from './redact-url.js';
import { planRetryDelayMs } from './retry.js';
import { type LineLimits, splitLines } from './split-lines.js';

export type { JsonResponse } from './attempt.js';
export type { LineLimits } from './split-lines.js';

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

/** A request beyond a plain GET: a JSON body to POST and headers of the caller's own. */
export interface JsonRequest {
  /** Sent as the JSON request body with `POST`; without it the request is a `GET`. */
  json?: unknown;
  /**
   * Extra request headers, e.g. an access token. Their values never reach a log line or an
   * error message: only the URL, with its credentials redacted, is ever shown. A request
   * with headers or a body follows no redirect (a 3xx is UPSTREAM_HTTP).
   */
  headers?: Readonly<Record<string, string>>;
}

export interface HttpClient {
  /** GETs a JSON document; `signal` lets a caller cancel requests it no longer needs. */
  getJson(url: string, signal?: AbortSignal): Promise<JsonResponse>;
  /** Sends `request` (a POST when it has a JSON body) and reads the JSON answer, retried like `getJson`. */
  sendJson(url: string, request: JsonRequest, signal?: AbortSignal): Promise<JsonResponse>;
  /**
   * GETs a large newline-delimited document and yields it line by line (without the line
   * ends, empty lines skipped), never holding more than one line: the first response is
   * retried like `getJson`, the body is not (its time is bounded by the client's deadline
   * and an idle timeout, not by the per-request timeout). A line over `maxLineBytes` or a
   * body over `maxTotalBytes` is UPSTREAM_TOO_LARGE.
   */
  streamLines(url: string, limits: LineLimits, signal?: AbortSignal): AsyncIterable<string>;
  /** Requests started, retries included. */
  readonly requests: number;
  close(): Promise<void>;
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

  async function open(url: string, spec: JsonRequest, signal: AbortSignal, accept: string) {
    const started = clock.now();
    const method = spec.json === undefined ? 'GET' : 'POST';
    const response = await request(url, {
      method,
      // A request carrying the caller's own headers (an access token) never follows a
      // redirect: undici drops only Authorization and cookies on a cross-origin one, so a
      // custom credential header would travel to wherever the store pointed. It fails instead.
      dispatcher: spec.headers === undefined && spec.json === undefined ? dispatcher : agent,
      signal,
      headers: {
        ...spec.headers,
        accept,
        'user-agent': options.userAgent,
        ...(spec.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(spec.json === undefined ? {} : { body: JSON.stringify(spec.json) }),
    });
    options.logger.debug(
      `${method} ${redactUrl(url)} → ${response.statusCode} (${clock.now() - started} ms)`,
    );
    return response;
  }

  async function attempt(url: string, spec: JsonRequest, signal: AbortSignal): Promise<JsonResponse> {
    const response = await open(url, spec, signal, 'application/json');
    return readJsonResponse(response, redactUrl(url), options.maxResponseBytes);
  }

  function classify(error: unknown, url: string, callerSignal: AbortSignal | undefined): AttemptError {
    const cancelled = callerSignal?.aborted
      ? callerSignal
      : options.signal?.aborted
        ? options.signal
        : undefined;
    return classifyFailure(error, url, {
      deadlinePassed: deadline.signal.aborted,
      timeoutMs: options.timeoutMs,
      ...(cancelled ? { cancelReason: cancelled.reason } : {}),
    });
  }

  /** One attempt under a fresh per-request timeout, which starts only once the limiter lets it go. */
  function scheduleAttempt(url: string, spec: JsonRequest, waitSignal: AbortSignal): Promise<JsonResponse> {
    return limiter.schedule(
      () => attempt(url, spec, AbortSignal.any([waitSignal, AbortSignal.timeout(options.requestTimeoutMs)])),
      waitSignal,
    );
  }

  function combineSignals(signal: AbortSignal | undefined): AbortSignal {
    const signals = [deadline.signal];
    if (signal) signals.push(signal);
    if (options.signal) signals.push(options.signal);
    return AbortSignal.any(signals);
  }

  /** Runs `once` until it succeeds or the retry policy gives up, waiting between attempts. */
  async function withRetries<T>(
    url: string,
    signal: AbortSignal | undefined,
    once: (waitSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    // Messages, logs and error details name the URL without any credentials it carries.
    const shown = redactUrl(url);
    const waitSignal = combineSignals(signal);
    let failure = new AttemptError(
      upstreamError('UPSTREAM_NETWORK', `no attempt made for ${shown}`, shown, {}),
      false,
    );
    for (let attemptNumber = 0; attemptNumber <= options.retries; attemptNumber++) {
      try {
        return await once(waitSignal);
      } catch (error) {
        failure = classify(error, shown, signal);
      }
      if (!failure.retryable || attemptNumber === options.retries) break;
      const delay = planRetryDelayMs({
        attempt: attemptNumber,
        retryAfterMs: failure.retryAfterMs,
        remainingMs: deadlineAt - clock.now(),
        random: options.random,
      });
      if (delay === undefined) break;
      options.logger.info(`retrying ${shown} in ${delay} ms after: ${failure.error.message}`);
      try {
        await clock.sleep(delay, waitSignal);
      } catch (cause) {
        throw classify(cause, shown, signal).error;
      }
    }
    throw failure.error;
  }

  async function* streamLines(url: string, limits: LineLimits, signal?: AbortSignal): AsyncIterable<string> {
    const shown = redactUrl(url);
    const response = await withRetries(url, signal, (waitSignal) =>
      limiter.schedule(async () => {
        const opened = await open(url, {}, waitSignal, 'application/jsonl, application/x-ndjson, */*');
        await assertOk(opened, shown);
        return opened;
      }, waitSignal),
    );
    try {
      yield* splitLines(response.body, shown, limits);
    } catch (error) {
      throw classify(error, shown, signal).error;
    } finally {
      response.body.destroy();
    }
  }

  return {
    getJson: (url, signal) => withRetries(url, signal, (wait) => scheduleAttempt(url, {}, wait)),
    sendJson: (url, spec, signal) => withRetries(url, signal, (wait) => scheduleAttempt(url, spec, wait)),
    streamLines,
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
