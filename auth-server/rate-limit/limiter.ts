/**
 * A fixed-window rate limiter whose counts live in the shared database (store/counters.ts),
 * so a limit holds across every instance behind a load balancer. Each limited response
 * advertises the policy and the state of the caller's quota in the header fields of
 * draft-ietf-httpapi-ratelimit-headers (§3 `RateLimit-Policy: "default";q=60;w=60`, §4
 * `RateLimit: "default";r=<remaining>;t=<seconds to reset>`); a request past the quota is
 * answered `429` (RFC 6585 §4) with `Retry-After` (RFC 9110 §10.2.3). If the database
 * cannot count, the request is let through and the failure logged: the limiter must not turn
 * a database hiccup into refusing every request (the routes will fail on their own anyway).
 */
import type { Request, RequestHandler } from 'express';
import { OAuthError } from '../errors.js';
import { type Clock, unixSeconds } from '../key-ring.js';
import type { Logger } from '../logger.js';
import type { CounterStore } from '../store/counters.js';

export interface RateLimitPolicy {
  /** The policy name in the header fields (a structured-field string). */
  name: string;
  /** Requests allowed per window (the draft's quota, `q`). */
  limit: number;
  /** Window length in seconds (`w`). */
  windowSeconds: number;
}

export interface RateLimiterOptions {
  policy: RateLimitPolicy;
  counters: CounterStore;
  clock: Clock;
  logger: Logger;
  /** The key the request counts against (without the policy name); undefined = not limited. */
  keyFor(req: Request): Promise<string | undefined> | string | undefined;
  /** How a refusal is rendered: JSON for API endpoints, the HTML page for browser pages. */
  renderFor(req: Request): 'json' | 'page';
  /** The setting that changes this limit, for the operator's log line (never sent to clients). */
  setting?: string;
}

/** `RateLimit-Policy` member for `policy`. */
export function formatRateLimitPolicy(policy: RateLimitPolicy): string {
  return `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`;
}

/** `RateLimit` member: what is left and when the window resets. */
export function formatRateLimit(policy: RateLimitPolicy, remaining: number, resetSeconds: number): string {
  return `"${policy.name}";r=${remaining};t=${resetSeconds}`;
}

/** The fixed window containing `nowSeconds`. */
export function windowOf(nowSeconds: number, windowSeconds: number): { start: number; end: number } {
  const start = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

export function createRateLimiter(options: RateLimiterOptions): RequestHandler {
  const { policy, counters, clock, logger } = options;
  return async (req, res, next) => {
    const key = await options.keyFor(req);
    if (key === undefined) {
      next();
      return;
    }
    const now = unixSeconds(clock);
    const window = windowOf(now, policy.windowSeconds);
    let count: number;
    try {
      count = await counters.hit(`rl:${policy.name}:${key}`, window.start, window.end);
    } catch (error) {
      logger.warn('rate limit not counted', {
        policy: policy.name,
        error: error instanceof Error ? error.message : String(error),
      });
      next();
      return;
    }
    const reset = Math.max(1, window.end - now);
    res.append('RateLimit-Policy', formatRateLimitPolicy(policy));
    res.append('RateLimit', formatRateLimit(policy, Math.max(0, policy.limit - count), reset));
    if (count > policy.limit) {
      logger.info('rate limit exceeded', {
        policy: policy.name,
        keyKind: key.split(':', 1)[0],
        ...(options.setting ? { setting: options.setting } : {}),
      });
      throw new OAuthError(
        429,
        'too_many_requests',
        `more than ${policy.limit} requests in ${policy.windowSeconds} seconds; retry after ${reset} seconds`,
        { headers: { 'Retry-After': String(reset) }, render: options.renderFor(req) },
      );
    }
    next();
  };
}
