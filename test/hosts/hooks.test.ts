/**
 * The webhook receiver on the hosts' own engines: the sample bundle built with the real CLI,
 * served by `wrangler pages dev` (the `_worker.js` on workerd, the receiver's variables as
 * the project's bindings) and by `netlify dev --offline` (the function, the variables in the
 * site's environment), each triggering a loopback stand-in for its own rebuild URL (a
 * Cloudflare deploy hook, a Netlify build hook). Deliveries are signed as Shopify and
 * WooCommerce sign them: good, forged, unsigned, stale, oversized, replayed, a ping and a
 * burst. The stand-in counts the triggers each engine sends.
 *
 * The two engines keep different state, as their hosts do: workerd keeps one isolate, so
 * its receiver remembers deliveries and coalesces a burst; `netlify dev` runs every
 * invocation of a Functions v2 function on a fresh Node worker, so nothing is remembered
 * between deliveries (the stateless worst case docs/hosting.md describes): each good
 * delivery brings its own trigger, and each bad one none.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCompiled } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { requires } from '../helpers/requirements.js';
import {
  deliver,
  SHOPIFY_SECRET,
  shopifyDelivery,
  WOO_SECRET,
  wooDelivery,
  wooPing,
} from '../live/hooks/deliveries.js';
import { startTriggerStandIn, type TriggerStandIn } from '../live/hooks/trigger-stand-in.js';
import { forEachAtMost } from './at-most.js';
import { ENGINES, type RunningEngine, startNetlify, startWrangler } from './engines.js';
import { buildWith } from './served.js';

/** Each engine's rebuild URL, on the one stand-in: the path tells whose trigger it was. */
const HOOK_PATHS: Record<RunningEngine['name'], string> = {
  wrangler: '/client/v4/pages/webhooks/deploy_hooks/wrangler-dev',
  netlify: '/build_hooks/netlify-dev',
};

/** Whether the engine keeps the receiver's memory from one delivery to the next. */
const REMEMBERS: Record<RunningEngine['name'], boolean> = { wrangler: true, netlify: false };

/** Longer than the serverless policy's longest delay (8 s) plus its retries' first attempt. */
const SETTLE_MS = 12_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

describe("the webhook receiver on the hosts' own engines", requires(ENGINES), () => {
  let root: string;
  let standIn: TriggerStandIn;
  const engines: RunningEngine[] = [];

  const triggersOf = (engine: RunningEngine) =>
    standIn.calls.filter((call) => call.path === HOOK_PATHS[engine.name]).length;

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-hooks-hosts-'));
    standIn = await startTriggerStandIn();
    const dir = await buildWith(root, 'sample', join(REPO_ROOT, 'catalog.config.json'));
    const env = (name: RunningEngine['name']) => ({
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: WOO_SECRET,
      AGENT_CATALOG_REBUILD_URL: `${standIn.origin}${HOOK_PATHS[name]}`,
    });
    // One after the other: the machine is small, and each engine is slow to start.
    engines.push(await startWrangler(dir, env('wrangler')));
    engines.push(await startNetlify(dir, env('netlify')));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
    await standIn?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('when good, bad and replayed deliveries arrive then each gets its status and only the good one triggers', async () => {
    // The engines side by side: the stand-in tells their triggers apart by path, so one
    // settling wait covers both.
    await forEachAtMost(engines, engines.length, async (engine) => {
      const shopify = `${engine.url}/hooks/shopify`;
      const woocommerce = `${engine.url}/hooks/woocommerce`;
      const replayed = shopifyDelivery({ webhookId: `replayed-${engine.name}` });
      expect((await deliver(shopify, replayed)).status, engine.name).toBe(200);
      expect((await deliver(shopify, shopifyDelivery({ secret: 'forged' }))).status, engine.name).toBe(401);
      const unsigned = shopifyDelivery();
      delete unsigned.headers['x-shopify-hmac-sha256'];
      expect((await deliver(shopify, unsigned)).status, engine.name).toBe(401);
      const stale = shopifyDelivery({ triggeredAt: new Date(Date.now() - 20 * 60_000) });
      expect((await deliver(shopify, stale)).status, engine.name).toBe(400);
      const oversized = shopifyDelivery({ body: new Uint8Array(1024 * 1024 + 1).fill(0x20) });
      expect((await deliver(shopify, oversized)).status, engine.name).toBe(413);
      expect((await deliver(woocommerce, wooPing())).status, engine.name).toBe(200);
      expect((await deliver(woocommerce, wooDelivery({ secret: 'forged' }))).status, engine.name).toBe(401);
      await settle();
      expect(triggersOf(engine), `${engine.name}: the good delivery's trigger`).toBe(1);
      expect((await deliver(shopify, { ...replayed })).status, engine.name).toBe(200);
    });
    await settle();
    for (const engine of engines) {
      // A replay is recognised only where the delivery ids are remembered.
      expect(triggersOf(engine), `${engine.name}: after the replay`).toBe(REMEMBERS[engine.name] ? 1 : 2);
    }
  }, 180_000);

  it('when a burst of 20 deliveries arrives then a remembering host sends one trigger and a stateless one at most one per delivery', async () => {
    const before = new Map(engines.map((engine) => [engine.name, triggersOf(engine)]));
    for (const engine of engines) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0
            ? deliver(`${engine.url}/hooks/shopify`, shopifyDelivery())
            : deliver(`${engine.url}/hooks/woocommerce`, wooDelivery()),
        ),
      );
      expect(
        answers.map((answer) => answer.status),
        engine.name,
      ).toEqual(Array(20).fill(200));
    }
    await settle();
    for (const engine of engines) {
      expect(triggersOf(engine) - (before.get(engine.name) ?? 0), engine.name).toBe(
        REMEMBERS[engine.name] ? 1 : 20,
      );
    }
  }, 180_000);
});
