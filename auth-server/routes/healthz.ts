/**
 * `GET /healthz` for load balancers and orchestrators: `200 {"status":"ok"}` when this
 * process is up, not shutting down, and its database answers a trivial query within two
 * seconds; `503` with `"unavailable"` or `"draining"` otherwise. It is never cached, never
 * rate-limited (it is mounted before the limiter) and never says why the database failed
 * (that goes to the log), since anyone can call it.
 */
import { Router } from 'express';
import type { IssuerContext } from '../context.js';
import { isServerClosing } from '../middleware/drain.js';

const PING_TIMEOUT_MS = 2000;

async function pingWithin(ping: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthzRouter(ctx: Pick<IssuerContext, 'store' | 'logger'>): Router {
  const router = Router();
  router.get('/healthz', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (isServerClosing(req)) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    try {
      await pingWithin(() => ctx.store.ping(), PING_TIMEOUT_MS);
    } catch (error) {
      ctx.logger.warn('health check failed', {
        error: error instanceof Error ? error.message : String(error),
      });
      res.status(503).json({ status: 'unavailable' });
      return;
    }
    res.status(200).json({ status: 'ok' });
  });
  return router;
}
