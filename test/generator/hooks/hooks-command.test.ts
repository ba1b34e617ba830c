/**
 * `agent-catalog hooks`: what it prints for each platform, and `--register` against
 * loopback stand-ins of Shopify's GraphQL Admin API and WooCommerce's REST API: the
 * subscriptions it creates, that a second run creates nothing, that credentials come from
 * the environment and are never printed, and its exit statuses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHooks } from '../../../generator/commands/hooks.js';
import type { CommandIo } from '../../../generator/commands/io.js';
import { REPO_ROOT } from '../pipeline/helpers.js';
import {
  SHOPIFY_TOKEN,
  type StandIn,
  startShopifyAdmin,
  startWooAdmin,
  WOO_KEY,
  WOO_SECRET,
} from './admin-stand-ins.js';

const WEBHOOK_SECRET = 'whsec-the-receiver-verifies-with-this';
const SHOPIFY_URL = 'https://pomona-juice.example/hooks/shopify';
const WOO_URL = 'https://pomona-juice.example/hooks/woocommerce';
const SHOPIFY_TOPICS = ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE', 'INVENTORY_LEVELS_UPDATE'];

function memoryIo(env: Record<string, string> = {}): CommandIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    env,
    cwd: REPO_ROOT,
    out: () => out,
    err: () => err,
  };
}

const options = { config: 'catalog.config.json', register: false, json: false };
const standIns: StandIn[] = [];

afterEach(async () => {
  for (const standIn of standIns.splice(0)) await standIn.close();
});

describe('agent-catalog hooks prints the subscriptions', () => {
  it('when run for the sample (a Shopify store) then it names the receiver URL, the four topics and the secret variable', async () => {
    const io = memoryIo();
    expect(await runHooks({ ...options, json: true }, io)).toBe(0);
    const summary = JSON.parse(io.out()) as Record<string, unknown>;
    expect(summary).toMatchObject({
      platform: 'shopify',
      url: SHOPIFY_URL,
      topics: ['products/create', 'products/update', 'products/delete', 'inventory_levels/update'],
      secret_variable: 'AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET',
      secret_set: false,
    });
  });

  it('when the platform is WooCommerce and the base URL has a path then the URL is under it', async () => {
    const io = memoryIo({ AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const code = await runHooks(
      { ...options, json: true, platform: 'woocommerce', baseUrl: 'https://pomona-juice.example/api' },
      io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({
      url: 'https://pomona-juice.example/api/hooks/woocommerce',
      topics: ['product.created', 'product.updated', 'product.deleted', 'product.restored'],
      secret_set: true,
    });
    expect(io.out()).not.toContain(WEBHOOK_SECRET);
  });

  it('when printed for a person then the secret is named and its value is not shown', async () => {
    const io = memoryIo({ AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET });
    expect(await runHooks(options, io)).toBe(0);
    expect(io.out()).toContain(SHOPIFY_URL);
    expect(io.out()).toContain('AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET');
    expect(io.out()).not.toContain(WEBHOOK_SECRET);
  });
});

describe('agent-catalog hooks with a store read through the Admin API', () => {
  it('when upstream.format is shopify_admin then the platform is Shopify and the admin origin is the source, with the same token variable', async () => {
    const shopify = await startShopifyAdmin();
    standIns.push(shopify);
    const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-hooks-config-'));
    try {
      const config = JSON.parse(await readFile(join(REPO_ROOT, 'catalog.config.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      config.upstream = { format: 'shopify_admin', source: shopify.origin };
      config.content_dir = join(REPO_ROOT, 'sample', 'content');
      await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(config));
      const io = memoryIo({ AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN });
      const code = await runHooks(
        { ...options, config: join(dir, 'catalog.config.json'), register: true, json: true },
        io,
      );
      expect(io.err()).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(io.out())).toMatchObject({ platform: 'shopify', url: SHOPIFY_URL });
      expect(shopify.mutations).toBe(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('agent-catalog hooks --register on Shopify', () => {
  it('when nothing is subscribed then it creates the four subscriptions, and a second run creates none', async () => {
    const shopify = await startShopifyAdmin([
      // Another app's subscription at another URL is left alone and does not count.
      {
        id: 'gid://shopify/WebhookSubscription/1',
        topic: 'PRODUCTS_UPDATE',
        uri: 'https://elsewhere.example/hook',
      },
    ]);
    standIns.push(shopify);
    const env = { AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN };
    const first = memoryIo(env);
    expect(await runHooks({ ...options, register: true, adminUrl: shopify.origin, json: true }, first)).toBe(
      0,
    );
    expect(shopify.mutations).toBe(4);
    const ours = shopify.subscriptions.filter((subscription) => subscription.uri === SHOPIFY_URL);
    expect(ours.map((subscription) => subscription.topic).sort()).toEqual([...SHOPIFY_TOPICS].sort());
    const registered = (JSON.parse(first.out()) as { registered: { status: string }[] }).registered;
    expect(registered.map((item) => item.status)).toEqual(['created', 'created', 'created', 'created']);

    const second = memoryIo(env);
    expect(await runHooks({ ...options, register: true, adminUrl: shopify.origin }, second)).toBe(0);
    expect(shopify.mutations).toBe(4);
    expect(second.out()).toContain('already subscribed');
    expect(first.out() + first.err() + second.out() + second.err()).not.toContain(SHOPIFY_TOKEN);
  });

  it('when one topic is already subscribed at the URL then only the other three are created', async () => {
    const shopify = await startShopifyAdmin([
      { id: 'gid://shopify/WebhookSubscription/7', topic: 'INVENTORY_LEVELS_UPDATE', uri: SHOPIFY_URL },
    ]);
    standIns.push(shopify);
    const io = memoryIo({ AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN });
    expect(await runHooks({ ...options, register: true, adminUrl: shopify.origin }, io)).toBe(0);
    expect(shopify.mutations).toBe(3);
  });

  it('when the token is wrong then it exits 1 naming the 401, without the token', async () => {
    const shopify = await startShopifyAdmin();
    standIns.push(shopify);
    const io = memoryIo({ AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: 'shpat_wrong-token' });
    expect(await runHooks({ ...options, register: true, adminUrl: shopify.origin }, io)).toBe(1);
    expect(io.err()).toContain('401');
    expect(io.err()).not.toContain('shpat_wrong-token');
    expect(shopify.mutations).toBe(0);
  });

  it('when Shopify refuses the subscription (a user error) then it exits 1 with the message', async () => {
    const shopify = await startShopifyAdmin();
    standIns.push(shopify);
    // A site served over plain http: Shopify delivers to https only.
    const io = memoryIo({
      AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN,
      AGENT_CATALOG_SITE_URL: 'http://127.0.0.1:9',
    });
    const code = await runHooks({ ...options, register: true, adminUrl: shopify.origin }, io);
    expect(code).toBe(1);
    expect(io.err()).toContain('not supported');
  });

  it('when no token is in the environment then it exits 2 naming the variable', async () => {
    const io = memoryIo();
    expect(await runHooks({ ...options, register: true, adminUrl: 'http://127.0.0.1:9' }, io)).toBe(2);
    expect(io.err()).toContain('AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN');
  });

  it('when the admin URL is plain http to a host that is not loopback then it exits 2 and sends nothing', async () => {
    const io = memoryIo({ AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN });
    expect(await runHooks({ ...options, register: true, adminUrl: 'http://10.1.2.3' }, io)).toBe(2);
    expect(io.err()).toContain('--admin-url');
  });
});

describe('agent-catalog hooks --register on WooCommerce', () => {
  const env = {
    AGENT_CATALOG_WOOCOMMERCE_CONSUMER_KEY: WOO_KEY,
    AGENT_CATALOG_WOOCOMMERCE_CONSUMER_SECRET: WOO_SECRET,
    AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  };

  it('when nothing is subscribed then it creates four active webhooks with the secret, and a second run creates none', async () => {
    const woo = await startWooAdmin();
    standIns.push(woo);
    const first = memoryIo(env);
    const run = { ...options, register: true, platform: 'woocommerce' as const, adminUrl: woo.origin };
    expect(await runHooks(run, first)).toBe(0);
    expect(woo.creates).toBe(4);
    expect(woo.webhooks.map((hook) => hook.topic).sort()).toEqual([
      'product.created',
      'product.deleted',
      'product.restored',
      'product.updated',
    ]);
    for (const hook of woo.webhooks) {
      expect(hook).toMatchObject({ delivery_url: WOO_URL, status: 'active', secret: WEBHOOK_SECRET });
    }
    const second = memoryIo(env);
    expect(await runHooks(run, second)).toBe(0);
    expect(woo.creates).toBe(4);
    const printed = first.out() + first.err() + second.out() + second.err();
    for (const secret of [WEBHOOK_SECRET, WOO_SECRET, WOO_KEY]) expect(printed).not.toContain(secret);
  });

  it('when a webhook exists but is paused then it is not duplicated and the output says to activate it', async () => {
    const woo = await startWooAdmin([
      { id: 5, name: 'old', status: 'paused', topic: 'product.updated', delivery_url: WOO_URL },
    ]);
    standIns.push(woo);
    const io = memoryIo(env);
    const run = { ...options, register: true, platform: 'woocommerce' as const, adminUrl: woo.origin };
    expect(await runHooks(run, io)).toBe(0);
    expect(woo.creates).toBe(3);
    expect(io.out()).toMatch(/product\.updated\s+already subscribed \(paused/);
  });

  it('when the webhook secret is not in the environment then it exits 2 naming the variable, before any request', async () => {
    const woo = await startWooAdmin();
    standIns.push(woo);
    const io = memoryIo({ ...env, AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET: '' });
    const run = { ...options, register: true, platform: 'woocommerce' as const, adminUrl: woo.origin };
    expect(await runHooks(run, io)).toBe(2);
    expect(io.err()).toContain('AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET');
    expect(woo.creates).toBe(0);
  });

  it('when the REST API keys are wrong then it exits 1', async () => {
    const woo = await startWooAdmin();
    standIns.push(woo);
    const io = memoryIo({ ...env, AGENT_CATALOG_WOOCOMMERCE_CONSUMER_SECRET: 'cs_wrong' });
    const run = { ...options, register: true, platform: 'woocommerce' as const, adminUrl: woo.origin };
    expect(await runHooks(run, io)).toBe(1);
    expect(io.err()).not.toContain('cs_wrong');
  });
});

describe('the hooks command line', () => {
  it('when --platform names no platform then it exits 2 with the usage', async () => {
    const cli = join(REPO_ROOT, 'lib', 'generator', 'cli.js');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, 'hooks', '--platform', 'shopfy'],
        { cwd: REPO_ROOT },
        (error, _out, stderr) => {
          resolve({ code: error && typeof error.code === 'number' ? error.code : error ? null : 0, stderr });
        },
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: agent-catalog hooks');
  });
});
