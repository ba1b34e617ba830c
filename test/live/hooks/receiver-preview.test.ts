/**
 * The webhook receiver over real HTTP on preview (the Node shell `serve` shares), with a
 * bundle of the sample merchant and a loopback stand-in for the rebuild endpoint: each
 * platform's deliveries as it signs them, good and bad, and what each triggers. The
 * coalescing windows are shortened here (the defaults are a 5 s quiet period and one
 * trigger a minute, exercised through `serve` in receiver-serve.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import type { TriggerPolicy } from '../../../live/hooks/trigger-scheduler.js';
import { type ServedBundle, serveTempBundle } from '../../generator/preview/served-bundle.js';
import { buildSampleLiveBundle } from '../live-bundle.js';
import {
  deliver,
  SHOPIFY_SECRET,
  shopifyDelivery,
  sign,
  WOO_SECRET,
  wooDelivery,
  wooPing,
} from './deliveries.js';
import { GITHUB_TOKEN, startTriggerStandIn, type TriggerStandIn } from './trigger-stand-in.js';

/** Short enough to keep the file quick; long enough that a burst's deliveries share a window. */
const POLICY: TriggerPolicy = { quietMs: 300, minIntervalMs: 1_500, maxDelayMs: 1_500 };
/** Longer than any trigger could take under POLICY, to see that none more came. */
const SETTLE_MS = 2_500;

const settle = (ms = SETTLE_MS) => new Promise((resolve) => setTimeout(resolve, ms));

let artifacts: Artifact[];
let standIn: TriggerStandIn;
let served: ServedBundle | undefined;

beforeAll(async () => {
  artifacts = (await buildSampleLiveBundle()).artifacts;
});

afterEach(async () => {
  await served?.close();
  served = undefined;
  await standIn?.close();
});

async function serve(env: Record<string, string>, standInOptions = {}): Promise<string> {
  standIn = await startTriggerStandIn(standInOptions);
  const vars: Record<string, string> = { ...env };
  for (const [name, value] of Object.entries(vars)) vars[name] = value.replace('{stand-in}', standIn.origin);
  served = await serveTempBundle(artifacts, { env: (name) => vars[name], hookPolicy: POLICY });
  return served.url;
}

const NETLIFY_HOOK = '{stand-in}/build_hooks/5f0c0ffee';
const BOTH = {
  AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
  AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: WOO_SECRET,
  AGENT_CATALOG_REBUILD_URL: NETLIFY_HOOK,
};

describe('the Shopify receiver on preview', () => {
  it('when a good delivery arrives then it answers 200 and triggers exactly one rebuild, an empty JSON POST', async () => {
    const url = await serve(BOTH);
    const response = await deliver(`${url}/hooks/shopify`, shopifyDelivery());
    expect(response.status).toBe(200);
    await standIn.waitForCalls(1);
    await settle();
    expect(standIn.calls).toHaveLength(1);
    expect(standIn.calls[0]).toMatchObject({ method: 'POST', path: '/build_hooks/5f0c0ffee', body: '{}' });
    expect(standIn.calls[0]?.headers['content-type']).toBe('application/json');
    expect(standIn.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('when deliveries are forged, unsigned, oversized or stale then each is refused and nothing is triggered', async () => {
    const url = await serve(BOTH);
    const hook = `${url}/hooks/shopify`;
    const forged = shopifyDelivery({ secret: 'not-the-secret' });
    expect((await deliver(hook, forged)).status).toBe(401);
    const unsigned = shopifyDelivery();
    delete unsigned.headers['x-shopify-hmac-sha256'];
    expect((await deliver(hook, unsigned)).status).toBe(401);
    const tampered = shopifyDelivery();
    tampered.body = `${String(tampered.body)} `;
    expect((await deliver(hook, tampered)).status).toBe(401);
    const garbage = shopifyDelivery();
    garbage.headers['x-shopify-hmac-sha256'] = 'not base64!';
    expect((await deliver(hook, garbage)).status).toBe(401);
    const oversized = shopifyDelivery({ body: new Uint8Array(1024 * 1024 + 1).fill(0x20) });
    expect((await deliver(hook, oversized)).status).toBe(413);
    const stale = shopifyDelivery({ triggeredAt: new Date(Date.now() - 16 * 60_000) });
    expect((await deliver(hook, stale)).status).toBe(400);
    await settle();
    expect(standIn.calls).toHaveLength(0);
  });

  it('when a delivery of just under 1 MiB arrives then it is accepted', async () => {
    const url = await serve(BOTH);
    const body = new Uint8Array(1024 * 1024).fill(0x20);
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery({ body }))).status).toBe(200);
    await standIn.waitForCalls(1);
  });

  it('when Shopify retries a delivery (the same X-Shopify-Webhook-Id) then it is acknowledged and triggers nothing more', async () => {
    const url = await serve(BOTH);
    const first = shopifyDelivery({ webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' });
    expect((await deliver(`${url}/hooks/shopify`, first)).status).toBe(200);
    await standIn.waitForCalls(1);
    await settle();
    // Shopify resends the same delivery, re-signed the same way, after the first trigger.
    const retry = shopifyDelivery({ webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' });
    expect((await deliver(`${url}/hooks/shopify`, retry)).status).toBe(200);
    await settle();
    expect(standIn.calls).toHaveLength(1);
  });

  it('when a burst of 20 deliveries arrives then one rebuild is triggered', async () => {
    const url = await serve(BOTH);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => deliver(`${url}/hooks/shopify`, shopifyDelivery())),
    );
    expect(statuses.map((response) => response.status)).toEqual(Array(20).fill(200));
    await standIn.waitForCalls(1);
    await settle();
    expect(standIn.calls).toHaveLength(1);
  });

  it('when a delivery comes after a trigger then a second trigger follows, later, for the change the first build may have missed', async () => {
    const url = await serve(BOTH);
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(1);
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(2);
    await settle();
    expect(standIn.calls).toHaveLength(2);
  });

  it('when the topic does not touch the catalog then it is acknowledged and nothing is triggered', async () => {
    const url = await serve(BOTH);
    const response = await deliver(`${url}/hooks/shopify`, shopifyDelivery({ topic: 'orders/create' }));
    expect(response.status).toBe(200);
    await settle();
    expect(standIn.calls).toHaveLength(0);
  });

  it.each(['products/create', 'products/delete', 'inventory_levels/update'])(
    'when the topic is %s then a rebuild is triggered',
    async (topic) => {
      const url = await serve(BOTH);
      expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery({ topic }))).status).toBe(200);
      await standIn.waitForCalls(1);
    },
  );

  it('when the receiver is asked with GET then it answers 405 with Allow: POST', async () => {
    const url = await serve(BOTH);
    const response = await fetch(`${url}/hooks/shopify`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('the WooCommerce receiver on preview', () => {
  it('when WooCommerce pings a new webhook then it answers 200 and triggers nothing', async () => {
    const url = await serve(BOTH);
    expect((await deliver(`${url}/hooks/woocommerce`, wooPing())).status).toBe(200);
    await settle();
    expect(standIn.calls).toHaveLength(0);
  });

  it.each(['product.created', 'product.updated', 'product.deleted', 'product.restored'])(
    'when a signed %s delivery arrives then a rebuild is triggered',
    async (topic) => {
      const url = await serve(BOTH);
      expect((await deliver(`${url}/hooks/woocommerce`, wooDelivery({ topic }))).status).toBe(200);
      await standIn.waitForCalls(1);
    },
  );

  it('when a delivery is forged, unsigned, replayed or of another topic then nothing is triggered', async () => {
    const url = await serve(BOTH);
    const hook = `${url}/hooks/woocommerce`;
    expect((await deliver(hook, wooDelivery({ secret: 'wrong' }))).status).toBe(401);
    const unsigned = wooDelivery();
    delete unsigned.headers['x-wc-webhook-signature'];
    expect((await deliver(hook, unsigned)).status).toBe(401);
    // A Shopify-signed body at the WooCommerce receiver: the other platform's secret.
    expect((await deliver(hook, wooDelivery({ secret: SHOPIFY_SECRET }))).status).toBe(401);
    expect((await deliver(hook, wooDelivery({ topic: 'order.created' }))).status).toBe(200);
    await settle();
    expect(standIn.calls).toHaveLength(0);
    const once = wooDelivery({ deliveryId: '9e1a4b7f0c3d' });
    expect((await deliver(hook, once)).status).toBe(200);
    await standIn.waitForCalls(1);
    await settle();
    expect((await deliver(hook, wooDelivery({ deliveryId: '9e1a4b7f0c3d' }))).status).toBe(200);
    await settle();
    expect(standIn.calls).toHaveLength(1);
  });
});

describe('receivers that are off', () => {
  it('when no secret is set then both receiver paths are 404 and nothing is triggered', async () => {
    const url = await serve({ AGENT_CATALOG_REBUILD_URL: NETLIFY_HOOK });
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(404);
    expect((await deliver(`${url}/hooks/woocommerce`, wooDelivery())).status).toBe(404);
    expect((await fetch(`${url}/hooks/shopify`)).status).toBe(404);
    await settle(500);
    expect(standIn.calls).toHaveLength(0);
  });

  it('when only the Shopify secret is set then the WooCommerce path is 404', async () => {
    const url = await serve({
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_REBUILD_URL: NETLIFY_HOOK,
    });
    expect((await deliver(`${url}/hooks/woocommerce`, wooDelivery())).status).toBe(404);
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
  });

  it('when no document of the bundle names a receiver path then none advertises it', () => {
    const mentioning = artifacts.filter(
      (artifact) =>
        /\/hooks\/(shopify|woocommerce)/.test(artifact.body) &&
        !artifact.path.startsWith('_routes') &&
        !artifact.path.startsWith('.netlify-functions/') &&
        artifact.path !== '_worker.js',
    );
    expect(mentioning.map((artifact) => artifact.path)).toEqual([]);
  });
});

describe('the rebuild target', () => {
  it('when the rebuild URL is GitHub dispatches then the body names catalog-changed and the token is a bearer', async () => {
    const url = await serve({
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_REBUILD_URL: '{stand-in}/repos/pomona/catalog/dispatches',
      AGENT_CATALOG_REBUILD_TOKEN: GITHUB_TOKEN,
    });
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(1);
    const call = standIn.calls[0];
    expect(JSON.parse(call?.body ?? '')).toEqual({ event_type: 'catalog-changed' });
    expect(call?.headers.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
    expect(call?.headers.accept).toBe('application/vnd.github+json');
  });

  it('when the rebuild URL is a Cloudflare deploy hook then the token is not sent to it', async () => {
    const url = await serve({
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_REBUILD_URL: '{stand-in}/client/v4/pages/webhooks/deploy_hooks/0b1c2d',
      AGENT_CATALOG_REBUILD_TOKEN: GITHUB_TOKEN,
    });
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(1);
    expect(standIn.calls[0]?.body).toBe('{}');
    expect(standIn.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('when the endpoint fails twice then the trigger is tried again, three attempts at most', async () => {
    const url = await serve(BOTH, { failFirst: 2 });
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(3);
    await settle();
    expect(standIn.calls).toHaveLength(3);
  });

  it('when the endpoint redirects then the redirect is not followed', async () => {
    const url = await serve(BOTH, { redirect: true });
    expect((await deliver(`${url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(1);
    await settle();
    expect(standIn.calls.map((call) => call.path)).toEqual(['/build_hooks/5f0c0ffee']);
  });

  it.each([
    ['plain http to a host that is not loopback', 'http://10.0.0.1/build_hooks/x'],
    ['not a URL', 'build hook'],
    ['unset', ''],
  ])(
    'when the rebuild URL is %s then a good delivery is answered 503 and nothing is sent',
    async (_what, rebuild) => {
      const url = await serve({
        AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
        AGENT_CATALOG_REBUILD_URL: rebuild,
      });
      const response = await deliver(`${url}/hooks/shopify`, shopifyDelivery());
      expect(response.status).toBe(503);
      expect(response.body).toContain('AGENT_CATALOG_REBUILD_URL');
      expect(response.body).not.toContain('10.0.0.1');
      await settle(500);
      expect(standIn.calls).toHaveLength(0);
    },
  );
});

describe('signatures', () => {
  it('when the signature is computed as Shopify documents then it is the base64 of 32 bytes', () => {
    expect(Buffer.from(sign(SHOPIFY_SECRET, 'x'), 'base64')).toHaveLength(32);
  });
});

afterAll(async () => {
  await served?.close();
});
