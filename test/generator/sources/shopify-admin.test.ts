import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { type CatalogError, exitStatusFor, isCatalogError } from '../../../generator/errors.js';
import { createHttpClient } from '../../../generator/http/client.js';
import { silentLogger } from '../../../generator/logger.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import {
  ADMIN_TOKEN_ENV,
  resolveAdminEndpoint,
} from '../../../generator/sources/shopify-admin/admin-endpoint.js';
import { runBulkExport } from '../../../generator/sources/shopify-admin/bulk-operation.js';
import { type AdminProductOptions, writeBulkExport } from '../../fixtures/shopify-admin/bulk-lines.js';
import type { ShopifyProduct } from '../../fixtures/upstream/make-products.js';
import { catchError } from '../../helpers/catch-error.js';
import {
  type AdminServer,
  type AdminServerOptions,
  startShopifyAdminServer,
} from '../../helpers/shopify-admin-server.js';
import {
  makeShopifyProducts,
  startUpstreamServer,
  type UpstreamServer,
} from '../../helpers/upstream-server.js';
import { FIXED_NOW, hashTree, makeWorkspace } from '../pipeline/helpers.js';
import { makeContext, makeUpstreamConfig } from './upstream-setup.js';

const TOKEN = 'shpat_stand_in_0123456789abcdef';

let admin: AdminServer | undefined;
let storefront: UpstreamServer | undefined;
afterEach(async () => {
  await admin?.close();
  await storefront?.close();
  admin = undefined;
  storefront = undefined;
});

async function startAdmin(products: ShopifyProduct[], extra: Partial<AdminServerOptions> = {}) {
  admin = await startShopifyAdminServer({
    token: TOKEN,
    jsonl: writeBulkExport(products.map((product) => ({ product }))),
    runningPolls: 0,
    ...extra,
  });
  return admin;
}

function readThroughAdmin(server: AdminServer, env: Record<string, string> = { [ADMIN_TOKEN_ENV]: TOKEN }) {
  const context = { ...makeContext(), env };
  const config = makeUpstreamConfig(server.url, { format: 'shopify_admin', timeout_ms: 20_000 });
  return { context, result: fetchUpstream(config, context) };
}

function makeClient() {
  return createHttpClient({
    userAgent: 'agent-catalog/test',
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    timeoutMs: 10_000,
    retries: 0,
    maxResponseBytes: 1024 * 1024,
    maxConcurrency: 2,
    requestsPerMinute: 600,
    logger: silentLogger,
  });
}

async function exportWith(extra: Partial<AdminServerOptions>) {
  const server = await startAdmin(makeShopifyProducts(3), extra);
  const client = makeClient();
  const waits: number[] = [];
  const api = {
    endpoint: resolveAdminEndpoint(new URL(server.url)),
    token: TOKEN,
    client,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
  try {
    return {
      waits,
      outcome: await runBulkExport(api, { firstDelayMs: 1, maxDelayMs: 1 }).catch((error: unknown) => error),
    };
  } finally {
    await client.close();
  }
}

describe('the shopify_admin source (a bulk export of the Admin GraphQL API)', () => {
  test('when the store has more products than the storefront serves (25,000) then the bulk export reads every one', async () => {
    const products = makeShopifyProducts(25_050);
    const server = await startAdmin(products);
    const result = await readThroughAdmin(server).result;
    expect(result.format).toBe('shopify_admin');
    expect(result.rejected).toEqual([]);
    expect(result.products).toHaveLength(25_050);
    expect(new Set(result.products.map((product) => product.record.slug))).toEqual(
      new Set(products.map((product) => product.handle)),
    );
    // 25,050 products with three variants each: about 100,000 lines through the on-disk join.
  }, 120_000);

  test('when one store is read through the storefront and through the Admin API then the records are the same', async () => {
    const products = makeShopifyProducts(60);
    storefront = await startUpstreamServer({ shopify: products });
    const viaStorefront = await fetchUpstream(
      makeUpstreamConfig(`${storefront.url}/products.json`),
      makeContext(),
    );
    const viaAdmin = await readThroughAdmin(await startAdmin(products)).result;
    // The Admin export lists products in its own order; the pipeline sorts by slug later.
    const bySlug = (list: typeof viaAdmin.products) =>
      [...list].map((product) => product.record).sort((a, b) => a.slug.localeCompare(b.slug));
    expect(bySlug(viaAdmin.products)).toEqual(bySlug(viaStorefront.products));
    // Variants, SKUs, compare-at prices, options and images all came through.
    const onSale = viaAdmin.products.filter((product) =>
      product.record.variants.some((v) => v.compare_at_price),
    );
    expect(onSale.length).toBeGreaterThan(0);
    expect(viaAdmin.products.some((product) => product.record.images.length > 0)).toBe(true);
    expect(viaAdmin.products.every((product) => product.record.variants.every((v) => v.sku))).toBe(true);
  });

  test('when products are drafts, archived, unlisted or not on the online store then none reaches the records', async () => {
    const products = makeShopifyProducts(6);
    const hidden: AdminProductOptions[] = [
      { status: 'DRAFT' },
      { status: 'ARCHIVED' },
      { status: 'UNLISTED' },
      { status: 'ACTIVE', onOnlineStore: false },
    ];
    const entries = products.map((product, index) => ({
      product,
      ...(hidden[index] ? { options: hidden[index] } : {}),
    }));
    admin = await startShopifyAdminServer({ token: TOKEN, jsonl: writeBulkExport(entries), runningPolls: 0 });
    const result = await readThroughAdmin(admin).result;
    expect(result.products.map((product) => product.record.slug).sort()).toEqual(
      products
        .slice(4)
        .map((product) => product.handle)
        .sort(),
    );
    expect(result.rejected).toEqual([]);
  });

  test('when the token is not in the environment then the build stops with CONFIG_INVALID naming the variable, before any request', async () => {
    const server = await startAdmin(makeShopifyProducts(2));
    const error = await rejectionOf(readThroughAdmin(server, {}).result);
    expect(isCatalogError(error, 'CONFIG_INVALID')).toBe(true);
    expect(exitStatusFor(error)).toBe(2);
    expect((error as CatalogError).details.env).toBe(ADMIN_TOKEN_ENV);
    expect(server.requests).toEqual([]);
  });

  test('when the token is wrong then UPSTREAM_HTTP 401, and the token is in no message, detail or log line', async () => {
    const server = await startAdmin(makeShopifyProducts(2));
    const { context, result } = readThroughAdmin(server, { [ADMIN_TOKEN_ENV]: `${TOKEN}-revoked` });
    const error = await rejectionOf(result);
    expect(isCatalogError(error, 'UPSTREAM_HTTP')).toBe(true);
    expect((error as CatalogError).details.status).toBe(401);
    expect(exitStatusFor(error)).toBe(1);
    const said = JSON.stringify([String(error), (error as CatalogError).details, context.logger.lines]);
    expect(said).not.toContain(TOKEN);
  });

  test('when the export completes then the token goes to the GraphQL endpoint only, never to the result download', async () => {
    const server = await startAdmin(makeShopifyProducts(3));
    const { context, result } = readThroughAdmin(server);
    expect((await result).products).toHaveLength(3);
    const graphqlCalls = server.requests.filter((request) => request.method === 'POST');
    const downloads = server.requests.filter((request) => request.path.startsWith('/bulk/'));
    expect(graphqlCalls.length).toBeGreaterThanOrEqual(2);
    expect(graphqlCalls.every((request) => request.headers['x-shopify-access-token'] === TOKEN)).toBe(true);
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.headers['x-shopify-access-token']).toBeUndefined();
    expect(JSON.stringify(context.logger.lines)).not.toContain(TOKEN);
    expect(JSON.stringify(context.logger.lines)).not.toContain('stand-in-signature');
  });

  test('when the GraphQL endpoint redirects to another origin then the token is not sent there and the read fails', async () => {
    const { createServer } = await import('node:http');
    const seen: (string | undefined)[] = [];
    const elsewhere = createServer((request, response) => {
      seen.push(request.headers['x-shopify-access-token'] as string | undefined);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"data":{}}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const address = elsewhere.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: `http://127.0.0.1:${port}/admin/api/2026-01/graphql.json` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const from = redirecting.address();
    const fromPort = typeof from === 'object' && from !== null ? from.port : 0;
    try {
      const context = { ...makeContext(), env: { [ADMIN_TOKEN_ENV]: TOKEN } };
      const config = makeUpstreamConfig(`http://localhost:${fromPort}`, {
        format: 'shopify_admin',
        retries: 0,
      });
      const error = await rejectionOf(fetchUpstream(config, context));
      expect(isCatalogError(error, 'UPSTREAM_HTTP')).toBe(true);
      expect(seen).toEqual([]);
    } finally {
      redirecting.closeAllConnections();
      elsewhere.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  test('when the result holds a line that is not JSON then UPSTREAM_SHAPE names the line, not the signed URL', async () => {
    const good = writeBulkExport(makeShopifyProducts(2).map((product) => ({ product })));
    admin = await startShopifyAdminServer({
      token: TOKEN,
      jsonl: `${good}{"id": "gid://shopify/Product/9",\n`,
      runningPolls: 0,
    });
    const error = await rejectionOf(readThroughAdmin(admin).result);
    expect(isCatalogError(error, 'UPSTREAM_SHAPE')).toBe(true);
    expect((error as CatalogError).details.line).toBe(good.split('\n').length);
    expect(String((error as CatalogError).message)).not.toContain('stand-in-signature');
  });

  test('when the export matched nothing then Shopify gives no URL and the source reads no product', async () => {
    const server = await startAdmin(makeShopifyProducts(2), { mode: 'empty' });
    const result = await readThroughAdmin(server).result;
    expect(result.products).toEqual([]);
    expect(server.requests.some((request) => request.path.startsWith('/bulk/'))).toBe(false);
  });
});

describe('the bulk operation lifecycle', () => {
  test('when Shopify answers THROTTLED twice then the export waits for the bucket to refill and goes on', async () => {
    const { waits, outcome } = await exportWith({ throttled: 2 });
    expect(outcome).toMatchObject({ url: expect.stringContaining('/bulk/result.jsonl') });
    // 10 points requested, 0 available, 100 restored a second: at least the one-second floor.
    expect(waits.filter((ms) => ms >= 1_000)).toHaveLength(2);
  });

  test('when Shopify stays throttled then UPSTREAM_LIMIT after a bounded number of waits', async () => {
    const { waits, outcome } = await exportWith({ throttled: 1_000 });
    expect(isCatalogError(outcome, 'UPSTREAM_LIMIT')).toBe(true);
    expect(exitStatusFor(outcome)).toBe(1);
    expect(waits.length).toBeLessThanOrEqual(5);
  });

  test.each([
    ['busy', 'UPSTREAM_HTTP'],
    ['failed', 'UPSTREAM_HTTP'],
    ['canceled', 'UPSTREAM_HTTP'],
    ['expired', 'UPSTREAM_HTTP'],
  ] as const)('when the operation is %s then %s, an upstream failure (exit 1)', async (mode, code) => {
    const { outcome } = await exportWith({ mode, runningPolls: 2 });
    expect(isCatalogError(outcome, code)).toBe(true);
    expect(exitStatusFor(outcome)).toBe(1);
  });

  test('when the source is the store origin then the query goes to the 2026-01 GraphQL endpoint; a pinned version is kept', () => {
    expect(resolveAdminEndpoint(new URL('https://juice.myshopify.com')).pathname).toBe(
      '/admin/api/2026-01/graphql.json',
    );
    expect(
      resolveAdminEndpoint(new URL('https://juice.myshopify.com/admin/api/2026-04/graphql.json')).pathname,
    ).toBe('/admin/api/2026-04/graphql.json');
    expect(
      isCatalogError(
        catchError(() => resolveAdminEndpoint(new URL('https://juice.myshopify.com/products.json'))),
        'CONFIG_INVALID',
      ),
    ).toBe(true);
  });
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('a build from the Admin API', () => {
  function options(dir: string, source: string): BuildOptions {
    return {
      configPath: 'catalog.config.json',
      out: 'dist',
      cwd: dir,
      write: true,
      logger: silentLogger,
      now: () => FIXED_NOW,
      flags: { source, source_format: 'shopify_admin' },
      env: { [ADMIN_TOKEN_ENV]: TOKEN },
    };
  }

  test('when hidden products are in the export then no published document names them', async () => {
    const { dir, cleanup } = await makeWorkspace('sample-small');
    try {
      const visible = JSON.parse(await readFile(join(dir, 'upstream/products.json'), 'utf8'))
        .products as ShopifyProduct[];
      const secret = makeShopifyProducts(3).map((product, index) => ({
        ...product,
        id: 990_000 + index,
        handle: `unreleased-${index}`,
        title: `Unreleased ${index}`,
      }));
      const statuses: AdminProductOptions[] = [
        { status: 'DRAFT' },
        { status: 'ARCHIVED' },
        { onOnlineStore: false },
      ];
      const jsonl = writeBulkExport([
        ...visible.map((product) => ({ product })),
        ...secret.map((product, index) => ({ product, options: statuses[index] ?? {} })),
      ]);
      await writeFile(join(dir, 'export.jsonl'), jsonl);
      const result = await build({ ...options(dir, 'export.jsonl'), write: false });
      expect(result.plan.catalog.count).toBe(visible.length);
      for (const artifact of result.artifacts) {
        expect(artifact.body).not.toContain('unreleased-');
        expect(artifact.body).not.toContain('Unreleased ');
      }
    } finally {
      await cleanup();
    }
  });

  test('when the export fails then the build exits 1 and the last good bundle is kept byte for byte', async () => {
    const { dir, cleanup } = await makeWorkspace('sample-small');
    try {
      const products = JSON.parse(await readFile(join(dir, 'upstream/products.json'), 'utf8'))
        .products as ShopifyProduct[];
      admin = await startShopifyAdminServer({
        token: TOKEN,
        jsonl: writeBulkExport(products.map((product) => ({ product }))),
        runningPolls: 0,
      });
      await build(options(dir, admin.url));
      const before = await hashTree(join(dir, 'dist'));
      expect(Object.keys(before).length).toBeGreaterThan(10);
      await admin.close();
      admin = await startShopifyAdminServer({ token: TOKEN, jsonl: '', mode: 'failed', runningPolls: 0 });
      const error = await rejectionOf(build(options(dir, admin.url)));
      expect(exitStatusFor(error)).toBe(1);
      expect(await hashTree(join(dir, 'dist'))).toEqual(before);
    } finally {
      await cleanup();
    }
  });
});
