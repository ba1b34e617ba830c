/**
 * Politeness for upstream requests: at most `maxConcurrency` requests in flight and no
 * more than `requestsPerMinute` started in any rolling 60-second window. The window is a
 * token bucket whose tokens come back exactly one minute after they were spent, so the
 * first pages of a crawl start at once (bounded by the concurrency) while a long crawl
 * can never exceed the rate the merchant asks for ("exceed about 60 requests per
 * minute" is what clients may not do, spec part 5.6). The clock is injectable so the
 * rate can be tested without waiting a minute.
 */

export interface LimiterClock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface RequestLimiterOptions {
  maxConcurrency: number;
  requestsPerMinute: number;
  clock?: LimiterClock;
}

export interface RequestLimiter {
  /** Runs `task` once a concurrency slot and a rate token are free. */
  schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Requests started so far. */
  readonly started: number;
}

const WINDOW_MS = 60_000;

export function createRequestLimiter(options: RequestLimiterOptions): RequestLimiter {
  if (!Number.isInteger(options.maxConcurrency) || options.maxConcurrency < 1) {
    throw new TypeError('maxConcurrency must be a positive integer');
  }
  if (!Number.isInteger(options.requestsPerMinute) || options.requestsPerMinute < 1) {
    throw new TypeError('requestsPerMinute must be a positive integer');
  }
  const clock = options.clock ?? systemClock;
  const waiting: (() => void)[] = [];
  /** Start times of the requests of the last minute, oldest first (at most requestsPerMinute). */
  const recentStarts: number[] = [];
  let inFlight = 0;
  let started = 0;

  function releaseSlot(): void {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  }

  async function acquireSlot(signal?: AbortSignal): Promise<void> {
    if (inFlight < options.maxConcurrency) {
      inFlight += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const index = waiting.indexOf(grant);
        if (index >= 0) waiting.splice(index, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      // The slot is handed over directly by releaseSlot, so inFlight stays as it is.
      waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function acquireToken(signal?: AbortSignal): Promise<void> {
    // Bounded: each pass either returns or sleeps until the oldest start leaves the window.
    for (let pass = 0; pass < options.requestsPerMinute + 2; pass++) {
      const now = clock.now();
      while (recentStarts.length > 0 && (recentStarts[0] ?? now) <= now - WINDOW_MS) recentStarts.shift();
      if (recentStarts.length < options.requestsPerMinute) {
        recentStarts.push(now);
        started += 1;
        return;
      }
      const oldest = recentStarts[0] ?? now;
      await clock.sleep(Math.max(1, oldest + WINDOW_MS - now), signal);
    }
    throw new Error('rate limiter did not free a token');
  }

  return {
    get started() {
      return started;
    },
    async schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      await acquireSlot(signal);
      try {
        await acquireToken(signal);
        return await task();
      } finally {
        releaseSlot();
      }
    },
  };
}
