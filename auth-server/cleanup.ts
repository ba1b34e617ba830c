/**
 * Periodic removal of expired codes, tokens, sessions, interactions and retired keys.
 * The timer is unref'd so it never keeps the process alive, and a failed run is logged
 * and retried at the next tick rather than crashing the server.
 */
import type { Clock } from './key-ring.js';
import type { Logger } from './logger.js';
import type { CleanupCounts, Store } from './store/store.js';

export interface CleanupOptions {
  store: Store;
  logger: Logger;
  clock: Clock;
  intervalSeconds: number;
}

/** One clean-up pass. */
export async function removeExpired(store: Store, clock: Clock): Promise<CleanupCounts> {
  return store.deleteExpired(Math.floor(clock() / 1000));
}

/** Starts the interval; returns the function that stops it. */
export function startCleanup(options: CleanupOptions): () => void {
  const { store, logger, clock } = options;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    removeExpired(store, clock)
      .then((counts) => logger.debug('expired rows removed', { ...counts }))
      .catch((error: unknown) =>
        logger.error('clean-up failed', { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = false;
      });
  }, options.intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
