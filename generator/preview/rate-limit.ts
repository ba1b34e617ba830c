/**
 * The optional edge rate limit of `preview --rate-limit N`: N requests per client address
 * in a fixed 60-second window, kept in memory. It answers in the form of the IETF httpapi
 * RateLimit header fields draft (draft-ietf-httpapi-ratelimit-headers): every response
 * carries `RateLimit: "<policy>";r=<remaining>;t=<seconds to reset>`, and a refused one
 * also `Retry-After` (RFC 9110 section 10.2.3). The policy name is the one the hosting
 * rules announce in `RateLimit-Policy`, so the two fields refer to the same policy.
 */

export const WINDOW_SECONDS = 60;

/** Above this many tracked clients, expired windows are swept before adding another. */
const SWEEP_THRESHOLD = 10_000;

export interface RateLimitVerdict {
  allowed: boolean;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly limit: number;
  take(client: string): RateLimitVerdict;
}

interface Window {
  count: number;
  resetAt: number;
}

export function createRateLimiter(limit: number, now: () => number = Date.now): RateLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('rate limit must be a positive integer');
  const windows = new Map<string, Window>();
  const sweep = (time: number): void => {
    for (const [client, window] of windows) if (window.resetAt <= time) windows.delete(client);
  };
  return {
    limit,
    take(client) {
      const time = now();
      let window = windows.get(client);
      if (window === undefined || window.resetAt <= time) {
        if (windows.size >= SWEEP_THRESHOLD) sweep(time);
        window = { count: 0, resetAt: time + WINDOW_SECONDS * 1000 };
        windows.set(client, window);
      }
      window.count += 1;
      const resetSeconds = Math.max(1, Math.ceil((window.resetAt - time) / 1000));
      return { allowed: window.count <= limit, remaining: Math.max(0, limit - window.count), resetSeconds };
    },
  };
}

/** The policy name of the first item of a `RateLimit-Policy` field value (an sf-string or token). */
export function policyNameOf(policyField: string | undefined): string | undefined {
  if (policyField === undefined) return undefined;
  const match = /^\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z*][\w:.\-/*]*))/.exec(policyField);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** `"name";r=0;t=30`: the RateLimit field value for one verdict. */
export function formatRateLimitField(policy: string, verdict: RateLimitVerdict): string {
  return `"${policy.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}";r=${verdict.remaining};t=${verdict.resetSeconds}`;
}

/** `"name";q=N;w=60`: announced only when the hosting rules name no policy of their own. */
export function formatRateLimitPolicy(policy: string, limit: number): string {
  return `"${policy}";q=${limit};w=${WINDOW_SECONDS}`;
}
