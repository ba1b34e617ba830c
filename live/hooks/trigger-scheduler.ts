/**
 * Coalesces deliveries into rebuild triggers: a burst (a bulk edit of 5,000 products sends
 * thousands of deliveries) becomes one trigger. A trigger fires once no delivery has come
 * for the quiet period, never sooner than `minIntervalMs` after the previous one, and never
 * later than `maxDelayMs` after the first delivery it covers (on a serverless host the
 * instance is kept alive only so long after its answer: Cloudflare's `waitUntil` gives 30 s).
 * A delivery that arrives while a trigger is on its way is covered by the next one, since
 * the build it starts may already have read the store. Every `notify` returns the promise
 * of the trigger that will cover it, for the shell's `waitUntil`; it never rejects.
 *
 * No timer is ever cleared or moved: each `notify` sets its own, and only the timer of the
 * latest `notify` of a batch fires it (the others find they are not the latest and do
 * nothing). workerd binds a timer to the request that set it, and a later request cannot
 * clear it; the firing timer is the latest request's, whose `waitUntil` holds the trigger.
 */

export interface TriggerPolicy {
  /** Wait this long after the last delivery of a burst. */
  quietMs: number;
  /**
   * Node's `serve` only: a pending trigger does not keep a stopped process alive (the cron
   * catches what it would have covered). Never for a function: Netlify runs each invocation
   * on a Node worker that ends once nothing holds it, and an unref'd timer would never fire.
   */
  unrefTimers?: boolean;
  /** At most one trigger in this long. */
  minIntervalMs: number;
  /** At most this long between a delivery and the trigger that covers it. */
  maxDelayMs: number;
}

/** `serve`: one long-lived process, so the ceiling of one trigger a minute holds exactly. */
export const PROCESS_POLICY: TriggerPolicy = {
  quietMs: 5_000,
  minIntervalMs: 60_000,
  maxDelayMs: 60_000,
  unrefTimers: true,
};

/**
 * Cloudflare and Netlify: the trigger (with its retries, `rebuild-trigger.ts`) must end
 * within the time the host keeps an instance alive after answering, so the delay is short
 * and the ceiling holds per instance only.
 */
export const SERVERLESS_POLICY: TriggerPolicy = { quietMs: 2_000, minIntervalMs: 60_000, maxDelayMs: 8_000 };

export interface TriggerScheduler {
  notify(): Promise<void>;
}

interface Pending {
  firstAt: number;
  /** Counts the batch's notifications: a timer fires the batch only if it was set by the latest. */
  latest: number;
  done: Promise<void>;
  resolve: () => void;
}

export function createTriggerScheduler(
  fire: () => Promise<unknown>,
  policy: TriggerPolicy,
  now: () => number = Date.now,
): TriggerScheduler {
  let lastFiredAt = Number.NEGATIVE_INFINITY;
  let pending: Pending | undefined;

  const run = (batch: Pending): void => {
    if (pending === batch) pending = undefined;
    lastFiredAt = now();
    fire().then(batch.resolve, batch.resolve);
  };

  return {
    notify() {
      const at = now();
      if (pending === undefined) {
        let resolve = (): void => {};
        const done = new Promise<void>((settle) => {
          resolve = settle;
        });
        pending = { firstAt: at, latest: 0, done, resolve };
      }
      const batch = pending;
      batch.latest += 1;
      const mine = batch.latest;
      const due = Math.min(
        Math.max(at + policy.quietMs, lastFiredAt + policy.minIntervalMs),
        batch.firstAt + policy.maxDelayMs,
      );
      const timer = setTimeout(
        () => {
          if (pending === batch && batch.latest === mine) run(batch);
        },
        Math.max(0, due - at),
      );
      if (policy.unrefTimers === true) (timer as { unref?: () => void }).unref?.();
      return batch.done;
    },
  };
}
