/**
 * Reaping of what the protocol tables' own clean-up (cleanup.ts) does not cover: expired
 * rate-limit and sign-in counters, and clients that registered themselves but never
 * obtained a token within `unusedClientDays`. Self-service registration (RFC 7591) costs
 * nothing to call, so without this the clients table only grows. A reaped client that comes
 * back is told `401 invalid_client` at the token endpoint (it is simply unknown), which is
 * the signal to register again. "Used" means a successful token response, recorded by the
 * tracker below; passes run on the clean-up's timer (cleanup.ts `runPeriodically`).
 */
import type { RequestHandler } from 'express';
import { runPeriodically } from './cleanup.js';
import { type Clock, unixSeconds } from './key-ring.js';
import type { Logger } from './logger.js';
import type { ClientResolver } from './rate-limit/client-key.js';
import type { Store } from './store/store.js';

const DAY = 24 * 3600;

export interface ReapCounts {
  counters: number;
  clients: number;
}

/** One pass: expired counters, then clients unused for `unusedClientDays` (0 = keep them). */
export async function reapExpired(store: Store, clock: Clock, unusedClientDays: number): Promise<ReapCounts> {
  const now = unixSeconds(clock);
  const counters = await store.counters.deleteExpired(now);
  const clients =
    unusedClientDays > 0 ? await store.counters.deleteUnusedClients(now - unusedClientDays * DAY) : 0;
  return { counters, clients };
}

export interface ReaperOptions {
  store: Store;
  logger: Logger;
  clock: Clock;
  intervalSeconds: number;
  unusedClientDays: number;
}

/** Starts the periodic reaping; returns the function that stops it. */
export function startReaper(options: ReaperOptions): () => void {
  const { store, logger, clock } = options;
  return runPeriodically(options.intervalSeconds, logger, 'reaping failed', async () => {
    const counts = await reapExpired(store, clock, options.unusedClientDays);
    if (counts.clients > 0) logger.info('unused clients reaped', { clients: counts.clients });
    logger.debug('expired counters removed', { counters: counts.counters });
  });
}

// The store keeps a client's last use to the hour; within that hour this process does not
// ask again, which spares a round trip after every token response (BENCHMARKS.md).
const MARK_AGAIN_AFTER_MS = 3600 * 1000;
const MARKED_MAX = 10_000;

/** Records a client's use when the token endpoint answers it 200. */
export function createClientUsageTracker(
  store: Store,
  resolver: ClientResolver,
  clock: Clock,
): RequestHandler {
  const markedUntil = new Map<string, number>();
  async function mark(req: Parameters<RequestHandler>[0]): Promise<void> {
    const clientId = await resolver.resolve(req);
    if (clientId === undefined || (markedUntil.get(clientId) ?? 0) > clock()) return;
    await store.counters.markClientUsed(clientId, unixSeconds(clock));
    if (markedUntil.size >= MARKED_MAX) markedUntil.clear();
    markedUntil.set(clientId, clock() + MARK_AGAIN_AFTER_MS);
  }
  return (req, res, next) => {
    if (req.method !== 'POST' || req.path !== '/oauth/token') {
      next();
      return;
    }
    res.once('finish', () => {
      if (res.statusCode !== 200) return;
      mark(req).catch(() => {
        // Best effort: a missed mark only delays nothing but a reaping that is days away.
      });
    });
    next();
  };
}
