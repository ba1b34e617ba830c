/**
 * The delivery ids seen lately, so a platform's retry of a delivery already acted on
 * triggers nothing more. Only as long as a delivery can be accepted at all: Shopify's are
 * refused once older than 15 minutes, so an id older than that need not be remembered.
 * Bounded in entries as well, oldest dropped first. It lives in memory (the process for
 * `serve`, the isolate or warm instance on Cloudflare and Netlify), which is all the state
 * the host offers the handler; docs/hosting.md says what that means per host.
 */

export interface SeenDeliveries {
  /** True when `id` was seen within the window; records it otherwise. */
  checkAndRecord(id: string, now: number): boolean;
}

export function createSeenDeliveries(windowMs: number, maxEntries = 10_000): SeenDeliveries {
  // Insertion order is expiry order (one window for all), so pruning reads from the front.
  const expiries = new Map<string, number>();
  const prune = (now: number): void => {
    for (const [id, expiry] of expiries) {
      if (expiry > now && expiries.size < maxEntries) break;
      expiries.delete(id);
    }
  };
  return {
    checkAndRecord(id, now) {
      prune(now);
      const expiry = expiries.get(id);
      if (expiry !== undefined && expiry > now) return true;
      expiries.set(id, now + windowMs);
      return false;
    },
  };
}
