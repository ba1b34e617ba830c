import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectShopifyProduct,
  makeShopifyProducts,
  startUpstreamServer,
  type UpstreamMode,
  type UpstreamServer,
} from '../../helpers/upstream-server.js';
import { hashTree, makeWorkspace } from '../pipeline/helpers.js';
import { ensureCompiled, runCli } from './run-cli.js';

/** Small timeouts so every fault ends quickly; the CLI must exit by itself well within the guard. */
const TIMEOUT_MS = 2_500;
const GUARD_MS = TIMEOUT_MS + 10_000;

let server: UpstreamServer;
let root = '';
let cleanup: () => Promise<void> = async () => {};
let goodBundle = '';
let goodHashes: Record<string, string> = {};

function configFor(source: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    merchant: {
      name: 'Loopback Juice',
      url: 'https://loopback-juice.example',
      contact: 'hello@loopback-juice.example',
      currency: 'USD',
      ships_to: ['US'],
    },
    auth_url: 'https://auth.loopback-juice.example',
    upstream: {
      source,
      format: 'shopify',
      timeout_ms: TIMEOUT_MS,
      request_timeout_ms: 1_000,
      connect_timeout_ms: 500,
      retries: 1,
      requests_per_minute: 600,
      max_response_bytes: 1024 * 1024,
      ...extra,
    },
  });
}

async function workspaceWithGoodBundle(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, name);
  await cp(goodBundle, join(dir, 'dist'), { recursive: true });
  await writeFile(join(dir, 'catalog.config.json'), configFor(server.url, extra));
  return dir;
}

beforeAll(async () => {
  await ensureCompiled();
  server = await startUpstreamServer({
    shopify: makeShopifyProducts(30),
    slowIntervalMs: 50,
    oversizedBytes: 2 * 1024 * 1024,
  });
  ({ dir: root, cleanup } = await makeWorkspace());
  await writeFile(join(root, 'catalog.config.json'), configFor(server.url));
  const run = await runCli(['build', '--quiet'], { cwd: root, limitMs: GUARD_MS });
  expect(run.code).toBe(0);
  goodBundle = join(root, 'dist');
  goodHashes = await hashTree(goodBundle);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await cleanup();
});

const FAULTS: UpstreamMode[] = [
  'status500',
  'status429',
  'hang',
  'slow',
  'truncated',
  'reset',
  'wrongShape',
  'invalidJson',
  'oversized',
  'empty',
];

describe('agent-catalog build against a failing upstream', () => {
  for (const mode of FAULTS) {
    it(`when the upstream fails with ${mode} then the build exits 1 and the last bundle is byte-identical`, async () => {
      const dir = await workspaceWithGoodBundle(`fault-${mode}`);
      server.setMode(mode);
      try {
        const run = await runCli(['build', '--json'], { cwd: dir, limitMs: GUARD_MS });
        expect(run.killed).toBe(false);
        expect(run.code).toBe(1);
        const report = JSON.parse(run.stdout) as { ok: boolean; exitCode: number; error: { code: string } };
        expect(report.ok).toBe(false);
        expect(report.exitCode).toBe(1);
        expect(report.error.code).toMatch(mode === 'empty' ? /^CATALOG_EMPTY$/ : /^UPSTREAM_/);
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(await hashTree(join(dir, 'dist'))).toEqual(goodHashes);
        if (mode === 'empty') {
          // Told both that the store may be empty and may shrink, the build publishes it.
          const allowed = await runCli(['build', '--quiet', '--allow-empty', '--allow-shrink'], {
            cwd: dir,
            limitMs: GUARD_MS,
          });
          expect(allowed.code).toBe(0);
        }
      } finally {
        server.setMode('ok');
      }
    });
  }
});

describe('agent-catalog build: flags, config and output', () => {
  it('when a flag is unknown or malformed then the build exits 2 and writes nothing', async () => {
    const dir = await workspaceWithGoodBundle('flags');
    for (const args of [['--nope'], ['--source-format', 'magento'], ['--site-url', 'not a url']]) {
      const run = await runCli(['build', ...args], { cwd: dir, limitMs: GUARD_MS });
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
    }
    expect(await hashTree(join(dir, 'dist'))).toEqual(goodHashes);
  });

  it('when the config is invalid then the build exits 2 naming the field in --json', async () => {
    const dir = await workspaceWithGoodBundle('bad-config');
    await writeFile(join(dir, 'catalog.config.json'), configFor(server.url, { retries: -1 }));
    const run = await runCli(['build', '--json'], { cwd: dir, limitMs: GUARD_MS });
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as { error: { code: string; message: string } };
    expect(report.error.code).toBe('CONFIG_INVALID');
    expect(report.error.message).toContain('upstream.retries');
    expect(await hashTree(join(dir, 'dist'))).toEqual(goodHashes);
  });

  it('when --json is given then stdout is exactly one JSON object with the summary fields', async () => {
    const dir = await workspaceWithGoodBundle('json');
    const run = await runCli(['build', '--json'], { cwd: dir, limitMs: GUARD_MS });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(run.stdout) as Record<string, unknown> & {
      warnings: string[];
      feedExcluded: { product: string; rule: string }[];
    };
    expect(report).toMatchObject({ ok: true, exitCode: 0, changed: false, products: 30, unusedContent: [] });
    // The generated store leaves some products without an image: each is named once, with its rule.
    expect(report.warnings).toHaveLength(report.feedExcluded.length);
    for (const item of report.feedExcluded) {
      expect(item.rule).toBe('image_link');
      expect(report.warnings.filter((warning) => warning.includes(`"${item.product}"`))).toHaveLength(1);
    }
    expect(report.changes).toEqual({ added: [], removed: [], price: [], availability: [] });
    expect(report.out).toBe(join(dir, 'dist'));
  });

  it('when --json meets a flag error then stdout still holds one JSON object with exit 2', async () => {
    const run = await runCli(['build', '--json', '--nope'], { cwd: root, limitMs: GUARD_MS });
    expect(run.code).toBe(2);
    expect((JSON.parse(run.stdout) as { exitCode: number; error: { code: string } }).error.code).toBe(
      'FLAG_INVALID',
    );
  });

  it('when --quiet is given then nothing is printed on stdout', async () => {
    const dir = await workspaceWithGoodBundle('quiet');
    const run = await runCli(['build', '--quiet'], { cwd: dir, limitMs: GUARD_MS });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('when the embedded sample is built from the repository config then it publishes offline', async () => {
    const { dir, cleanup: done } = await makeWorkspace();
    try {
      const repo = join(import.meta.dirname, '../../..');
      const run = await runCli(
        ['build', '--json', '--config', join(repo, 'catalog.config.json'), '--out', join(dir, 'dist')],
        {
          cwd: dir,
          limitMs: GUARD_MS,
        },
      );
      expect(run.code).toBe(0);
      const catalog = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as {
        count: number;
      };
      expect(catalog.count).toBeGreaterThanOrEqual(12);
    } finally {
      await done();
    }
  });
});

describe('agent-catalog build at scale', () => {
  it('when a Shopify upstream serves 5,000 products then all are published with correct prices and availability', async () => {
    const big = await startUpstreamServer({ shopify: makeShopifyProducts(5_000) });
    const { dir, cleanup: done } = await makeWorkspace();
    try {
      await writeFile(
        join(dir, 'catalog.config.json'),
        configFor(big.url, { timeout_ms: 60_000, request_timeout_ms: 20_000 }),
      );
      const run = await runCli(['build', '--json'], { cwd: dir, limitMs: 90_000 });
      expect(run.code).toBe(0);
      const catalog = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as {
        count: number;
        products: { slug: string; price: string; availability: string }[];
      };
      expect(catalog.count).toBe(5_000);
      expect(catalog.products).toHaveLength(5_000);
      const bySlug = new Map(catalog.products.map((p) => [p.slug, p]));
      for (let index = 0; index < 5_000; index++) {
        const expected = expectShopifyProduct(index);
        expect(bySlug.get(expected.handle)).toMatchObject({
          price: expected.price,
          availability: expected.availability,
        });
      }
    } finally {
      await big.close();
      await done();
    }
  }, 120_000);
});
