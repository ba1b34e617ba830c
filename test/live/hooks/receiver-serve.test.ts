/**
 * `agent-catalog serve` as a merchant runs it, with the receiver's variables in its
 * environment and the default coalescing (a 5 s quiet period, one trigger a minute): a good
 * Shopify delivery answers 200 and brings exactly one trigger to the loopback stand-in; a
 * burst right after it brings none within the minute; and without a secret the path is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startCli } from '../../generator/preview/preview-process.js';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';
import { buildSampleLiveBundle } from '../live-bundle.js';
import { deliver, SHOPIFY_SECRET, shopifyDelivery } from './deliveries.js';
import { startTriggerStandIn, type TriggerStandIn } from './trigger-stand-in.js';

let bundle: TempBundle;
let standIn: TriggerStandIn;
const running: Running[] = [];

beforeAll(async () => {
  bundle = await writeTempBundle((await buildSampleLiveBundle()).artifacts);
  standIn = await startTriggerStandIn();
});

afterAll(async () => {
  for (const server of running) {
    server.child.kill('SIGTERM');
    await server.exit;
  }
  await standIn?.close();
  await bundle?.cleanup();
});

async function serve(env: Record<string, string>): Promise<Running> {
  const server = await startCli(['--dir', bundle.dir, '--port', '0', '--quiet'], 'serve', {
    ...process.env,
    ...env,
  });
  running.push(server);
  return server;
}

describe('serve with the webhook receiver', () => {
  it('when a good delivery and then a burst arrive then one trigger follows within seconds and the burst waits for the minute', async () => {
    const server = await serve({
      AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: SHOPIFY_SECRET,
      AGENT_CATALOG_REBUILD_URL: `${standIn.origin}/build_hooks/serve-test`,
    });
    expect((await deliver(`${server.url}/hooks/shopify`, shopifyDelivery())).status).toBe(200);
    await standIn.waitForCalls(1, 15_000);
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => deliver(`${server.url}/hooks/shopify`, shopifyDelivery())),
    );
    expect(burst.every((response) => response.status === 200)).toBe(true);
    // The quiet period has passed twice over; the ceiling (one a minute) holds the burst back.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(standIn.calls).toHaveLength(1);
    // Nothing of the rebuild URL or the secret is printed.
    expect(server.stdout() + server.stderr()).not.toContain('build_hooks');
    expect(server.stdout() + server.stderr()).not.toContain(SHOPIFY_SECRET);
  }, 45_000);

  it('when no secret is in the environment then the receiver path is a 404', async () => {
    const env = { ...process.env };
    delete env.AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET;
    delete env.AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET;
    const server = await startCli(['--dir', bundle.dir, '--port', '0', '--quiet'], 'serve', env);
    running.push(server);
    expect((await deliver(`${server.url}/hooks/shopify`, shopifyDelivery())).status).toBe(404);
    expect((await deliver(`${server.url}/hooks/woocommerce`, shopifyDelivery())).status).toBe(404);
  });
});
