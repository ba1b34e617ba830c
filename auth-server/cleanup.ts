/**
 * Periodic removal of expired codes, tokens, sessions, interactions and retired keys.
 * The timer is unref'd so it never keeps the process alive, and a failed run is logged
 * and retried at the next tick rather than crashing the server.
 */
import { type Clock, unixSeconds } from './key-ring.js';
import type { Logger } from './logger.js';
import type { CleanupCounts } from './store/rows.js';
import type { Store } from './store/store.js';

export interface CleanupOptions {
  store: Store;
  logger: Logger;
  clock: Clock;
  intervalSeconds: number;
}

/** One clean-up pass. */
export async function removeExpired(store: Store, clock: Clock): Promise<CleanupCounts> {
  return store.deleteExpired(unixSeconds(clock));
}

/**
 * Runs `pass` every `intervalSeconds`, never two at once (a slow pass makes the next tick
 * skip), on an unref'd timer; a failed pass is logged as `failure` and tried again at the
 * next tick. Returns the function that stops it. The reaper (reaper.ts) runs on it too.
 */
export function runPeriodically(
  intervalSeconds: number,
  logger: Logger,
  failure: string,
  pass: () => Promise<void>,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pass()
      .catch((error: unknown) =>
        logger.error(failure, { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = false;
      });
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts the interval; returns the function that stops it. */
export function startCleanup(options: CleanupOptions): () => void {
  const { store, logger, clock } = options;
  return runPeriodically(options.intervalSeconds, logger, 'clean-up failed', async () => {
    const counts = await removeExpired(store, clock);
    const emailTokens = await store.emailLinks.deleteExpiredTokens(unixSeconds(clock));
    logger.debug('expired rows removed', { ...counts, emailTokens });
  });
}
