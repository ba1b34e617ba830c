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
  classifyFailure,
  type JsonResponse,
  readJsonResponse,
  upstreamError,
} from './attempt.js';
import { createRequestLimiter, type LimiterClock, systemClock } from './limiter.js';
import { redactUrl } from './redact-url.js';
import { planRetryDelayMs } from './retry.js';

export type { JsonResponse } from './attempt.js';

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

export interface HttpClient {
  /** GETs a JSON document; `signal` lets a caller cancel requests it no longer needs. */
  getJson(url: string, signal?: AbortSignal): Promise<JsonResponse>;
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

  async function attempt(url: string, signal: AbortSignal): Promise<JsonResponse> {
    const started = clock.now();
    const response = await request(url, {
      method: 'GET',
      dispatcher,
      signal,
      headers: { accept: 'application/json', 'user-agent': options.userAgent },
    });
    const shown = redactUrl(url);
    options.logger.debug(`GET ${shown} → ${response.statusCode} (${clock.now() - started} ms)`);
    return readJsonResponse(response, shown, options.maxResponseBytes);
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
  function scheduleAttempt(url: string, waitSignal: AbortSignal): Promise<JsonResponse> {
    return limiter.schedule(
      () => attempt(url, AbortSignal.any([waitSignal, AbortSignal.timeout(options.requestTimeoutMs)])),
      waitSignal,
    );
  }

  async function getJson(url: string, signal?: AbortSignal): Promise<JsonResponse> {
    // Messages, logs and error details name the URL without any credentials it carries.
    const shown = redactUrl(url);
    const signals = [deadline.signal];
    if (signal) signals.push(signal);
    if (options.signal) signals.push(options.signal);
    const waitSignal = AbortSignal.any(signals);
    let failure = new AttemptError(
      upstreamError('UPSTREAM_NETWORK', `no attempt made for ${shown}`, shown, {}),
      false,
    );
    for (let attemptNumber = 0; attemptNumber <= options.retries; attemptNumber++) {
      try {
        return await scheduleAttempt(url, waitSignal);
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
