/**
 * The retry policy of the upstream client, as pure functions: which failures are worth
 * another attempt, how long to wait (exponential backoff with full jitter, so that many
 * cron jobs retrying at once do not stampede the store), and how to read `Retry-After`,
 * which RFC 9110 §10.2.3 allows as either delay-seconds or an HTTP-date.
 */

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 8_000;
/** A Retry-After longer than this is not worth waiting for in a 15-minute cron job. */
export const RETRY_AFTER_CAP_MS = 120_000;

/** 429 and 5xx may succeed later; other statuses will not change on a retry. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Full jitter: a uniform delay in [0, min(cap, base·2^attempt)), attempt counting from 0. */
export function computeBackoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds to wait as a `Retry-After` value asks, or undefined when it is absent or
 * unreadable. "Retry-After = HTTP-date / delay-seconds" (RFC 9110 §10.2.3); a date in the
 * past means "now".
 */
export function parseRetryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * How long to wait before the next attempt: the server's Retry-After when it gave one,
 * else jittered backoff. Returns undefined when the wait would end after the deadline,
 * so the caller fails now with the real cause instead of timing out later.
 */
export function planRetryDelayMs(options: {
  attempt: number;
  retryAfterMs: number | undefined;
  remainingMs: number;
  random?: () => number;
}): number | undefined {
  const wait =
    options.retryAfterMs !== undefined
      ? Math.min(options.retryAfterMs, RETRY_AFTER_CAP_MS)
      : computeBackoffMs(options.attempt, options.random);
  if (options.retryAfterMs !== undefined && options.retryAfterMs > RETRY_AFTER_CAP_MS) return undefined;
  return wait < options.remainingMs ? wait : undefined;
}
