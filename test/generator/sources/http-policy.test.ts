import { describe, expect, test } from 'vitest';
import { createRequestLimiter, type LimiterClock } from '../../../generator/http/limiter.js';
import {
  BACKOFF_CAP_MS,
  computeBackoffMs,
  isRetryableStatus,
  parseRetryAfterMs,
  planRetryDelayMs,
} from '../../../generator/http/retry.js';

/** A clock that only moves when the test says so; sleepers wake when their time comes. */
function createManualClock(): LimiterClock & { advance(ms: number): Promise<void> } {
  let now = 0;
  const sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => sleepers.push({ until: now + ms, wake: resolve })),
    async advance(ms) {
      now += ms;
      for (const sleeper of sleepers.filter((waiting) => waiting.until <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('createRequestLimiter', () => {
  test('when more than requests_per_minute are scheduled then the rest wait for the minute to roll', async () => {
    const clock = createManualClock();
    const limiter = createRequestLimiter({ maxConcurrency: 8, requestsPerMinute: 3, clock });
    const done: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((n) => limiter.schedule(async () => void done.push(n)));
    await settle();
    expect(done).toEqual([0, 1, 2]);
    await clock.advance(59_000);
    await settle();
    expect(done).toEqual([0, 1, 2]);
    await clock.advance(1_000);
    await settle();
    expect(done).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(tasks);
    expect(limiter.started).toBe(5);
  });

  test('when tasks are slow then no more than maxConcurrency run at once', async () => {
    const limiter = createRequestLimiter({ maxConcurrency: 2, requestsPerMinute: 100 });
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 6 }, () =>
      limiter.schedule(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      }),
    );
    for (let round = 0; round < 6; round++) {
      await settle();
      releases.shift()?.();
    }
    await Promise.all(tasks);
    expect(peak).toBe(2);
  });

  test('when a waiting task is aborted then it rejects and frees its place', async () => {
    const limiter = createRequestLimiter({ maxConcurrency: 1, requestsPerMinute: 100 });
    let release: () => void = () => {};
    const first = limiter.schedule(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const second = limiter.schedule(async () => 'ran', controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    release();
    await first;
    await expect(limiter.schedule(async () => 'third')).resolves.toBe('third');
  });

  test('when the limits are not positive integers then it is a TypeError', () => {
    expect(() => createRequestLimiter({ maxConcurrency: 0, requestsPerMinute: 1 })).toThrow(TypeError);
    expect(() => createRequestLimiter({ maxConcurrency: 1, requestsPerMinute: 0.5 })).toThrow(TypeError);
  });
});

describe('retry policy', () => {
  test.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [404, false],
    [304, false],
  ])('when the status is %i then retryable is %s', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });

  test('when backing off then the delay is within [0, base·2^attempt) and never above the cap', () => {
    expect(computeBackoffMs(0, () => 0.999)).toBeLessThan(250);
    expect(computeBackoffMs(2, () => 0.999)).toBeLessThan(1_000);
    expect(computeBackoffMs(2, () => 0.999)).toBeGreaterThanOrEqual(990);
    expect(computeBackoffMs(30, () => 0.999)).toBeLessThan(BACKOFF_CAP_MS);
    expect(computeBackoffMs(3, () => 0)).toBe(0);
  });

  test('when Retry-After is seconds or an HTTP date then it is read as milliseconds', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('2', now)).toBe(2_000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-1', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  test('when the wait would pass the deadline then no retry is planned', () => {
    expect(planRetryDelayMs({ attempt: 0, retryAfterMs: 1_000, remainingMs: 5_000 })).toBe(1_000);
    expect(planRetryDelayMs({ attempt: 0, retryAfterMs: 6_000, remainingMs: 5_000 })).toBeUndefined();
    expect(
      planRetryDelayMs({ attempt: 0, retryAfterMs: undefined, remainingMs: 5_000, random: () => 0.5 }),
    ).toBe(125);
    expect(planRetryDelayMs({ attempt: 0, retryAfterMs: 3_600_000, remainingMs: 7_200_000 })).toBeUndefined();
  });
});
