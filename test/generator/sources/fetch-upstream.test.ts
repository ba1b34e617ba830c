import { afterEach, describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import {
  expectShopifyProduct,
  expectWooProduct,
  makeShopifyProducts,
  makeWooProducts,
  startUpstreamServer,
  type UpstreamServer,
} from '../../helpers/upstream-server.js';
import { makeContext, makeUpstreamConfig, SITE_URL } from './upstream-setup.js';

let server: UpstreamServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('fetchUpstream from a Shopify storefront', () => {
  test('when the store has 5,000 products then all are fetched with correct prices and availability', async () => {
    server = await startUpstreamServer({ shopify: makeShopifyProducts(5_000) });
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), makeContext());
    expect(result.format).toBe('shopify');
    expect(result.rejected).toEqual([]);
    expect(result.products).toHaveLength(5_000);
    result.products.forEach((product, index) => {
      const expected = expectShopifyProduct(index);
      expect(product.record.slug).toBe(expected.handle);
      expect(product.record.price).toBe(expected.price);
      expect(product.record.availability).toBe(expected.availability);
      expect(product.record.url).toBe(`${SITE_URL}/products/${expected.handle}`);
    });
    expect(server.maxInFlight).toBeLessThanOrEqual(4);
    expect(result.requests).toBeLessThanOrEqual(24);
  });
});

describe('fetchUpstream from WooCommerce', () => {
  test('when the store has 250 products then pages follow X-WP-TotalPages', async () => {
    server = await startUpstreamServer({ woo: makeWooProducts(250) });
    const result = await fetchUpstream(
      makeUpstreamConfig(`${server.url}/wp-json/wc/store/v1/products`),
      makeContext(),
    );
    expect(result.format).toBe('woocommerce');
    expect(result.products).toHaveLength(250);
    expect(result.requests).toBe(3);
    result.products.forEach((product, index) => {
      const expected = expectWooProduct(index);
      expect(product.record.price).toBe(expected.price);
      expect(product.record.availability).toBe(expected.availability);
    });
  });
});

describe('fetchUpstream mapping and pagination', () => {
  test('when WooCommerce sends no X-WP-TotalPages then pages are read until a short one', async () => {
    server = await startUpstreamServer({ woo: makeWooProducts(250), omitTotalPages: true });
    const result = await fetchUpstream(
      makeUpstreamConfig(`${server.url}/wp-json/wc/store/v1/products`),
      makeContext(),
    );
    expect(result.products).toHaveLength(250);
    expect(new Set(result.products.map((product) => product.sourceId)).size).toBe(250);
  });

  test('when a Shopify store is read then records carry the spec fields and the extras', async () => {
    server = await startUpstreamServer();
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), makeContext());
    expect(result.products).toHaveLength(30);
    const [first] = result.products;
    expect(first?.sourceId).toBe('7000000');
    expect(first?.record).toMatchObject({
      name: 'Green Glow Cold-Pressed Juice 0',
      slug: 'green-glow-0',
      url: `${SITE_URL}/products/green-glow-0`,
      description: 'Cold-pressed daily from organic produce.\n\nBatch 0, bottled in glass.',
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      price: expectShopifyProduct(0).price,
      currency: 'USD',
      availability: 'in_stock',
      purchase_url: `${SITE_URL}/products/green-glow-0`,
      id: '7000000',
      brand: 'Pomona Press Juice Co.',
      category: 'Juice',
      tags: ['organic', 'cold-pressed'],
      images: [{ url: 'https://cdn.shop.example/files/green-glow-0.jpg', width: 800, height: 800 }],
    });
    expect(first?.record.variants.map((variant) => [variant.id, variant.sku])).toEqual([
      ['70000003', 'JC-0-3'],
      ['70000001', 'JC-0-1'],
      ['70000002', 'JC-0-2'],
    ]);
    expect(first?.record.options).toEqual([{ name: 'Pack', values: ['12 fl oz', '3-pack', '6-pack'] }]);
    expect(first?.record.variants[0]?.options).toEqual([{ name: 'Pack', value: '6-pack' }]);
    // Product 1 has its 6-pack on sale: only that variant says "was".
    const onSale = result.products[1]?.record;
    expect(onSale?.variants.map((variant) => variant.compare_at_price !== undefined)).toEqual([
      true,
      false,
      false,
    ]);
    expect(onSale?.compare_at_price).toBeUndefined();
    expect(first?.imageUrl).toBe('https://cdn.shop.example/files/green-glow-0.jpg');
    expect(first?.updatedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  test('when requests are made then they carry the descriptive User-Agent, or the configured one', async () => {
    server = await startUpstreamServer();
    await fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), makeContext());
    expect(server.requests[0]?.headers['user-agent']).toBe(`agent-catalog/0.0.0-test (+${SITE_URL})`);
    await fetchUpstream(
      makeUpstreamConfig(`${server.url}/products.json`, { user_agent: 'pomona-sync/2' }),
      makeContext(),
    );
    expect(server.requests.at(-1)?.headers['user-agent']).toBe('pomona-sync/2');
  });

  test('when pages are slow then at most max_concurrency requests are in flight, and they do overlap', async () => {
    server = await startUpstreamServer({ shopify: makeShopifyProducts(2_000), latencyMs: 40 });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, {
      page_size: 100,
      max_concurrency: 2,
    });
    const result = await fetchUpstream(upstream, makeContext());
    expect(result.products).toHaveLength(2_000);
    expect(server.maxInFlight).toBe(2);
  });

  test('when a Shopify page comes back twice then every product is kept once', async () => {
    server = await startUpstreamServer({ mode: 'duplicatePages' });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, { page_size: 10 });
    const result = await fetchUpstream(upstream, makeContext());
    const ids = result.products.map((product) => product.sourceId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(result.rejected).toEqual([]);
  });

  test('when a WooCommerce page comes back twice then every product is kept once', async () => {
    server = await startUpstreamServer({ mode: 'duplicatePages' });
    const upstream = makeUpstreamConfig(`${server.url}/wp-json/wc/store/v1/products`, { page_size: 10 });
    const result = await fetchUpstream(upstream, makeContext());
    expect(result.products.map((product) => product.sourceId).sort()).toEqual(
      makeWooProducts(30)
        .map((product) => String(product.id))
        .sort(),
    );
  });

  test.each([
    ['shopify', '/products.json'],
    ['woocommerce', '/wp-json/wc/store/v1/products'],
    ['native', '/catalog.json'],
  ] as const)(
    'when a %s store has no products then the result is empty, not an error',
    async (format, path) => {
      server = await startUpstreamServer({ mode: 'empty' });
      const result = await fetchUpstream(makeUpstreamConfig(`${server.url}${path}`), makeContext());
      expect(result.format).toBe(format);
      expect(result.products).toEqual([]);
    },
  );

  test('when a Shopify store is still full at page × limit = 25,000 then the fetch fails with UPSTREAM_LIMIT', async () => {
    server = await startUpstreamServer({ shopify: makeShopifyProducts(25_001) });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, {
      requests_per_minute: 10_000,
      timeout_ms: 60_000,
    });
    const error = await fetchUpstream(upstream, makeContext()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isCatalogError(error, 'UPSTREAM_LIMIT')).toBe(true);
    expect(Math.max(...server.requests.map((request) => request.page))).toBe(100);
  }, 60_000);

  test('when the source is a store root and the format is given then the listing path is added', async () => {
    server = await startUpstreamServer();
    const shopify = await fetchUpstream(makeUpstreamConfig(server.url, { format: 'shopify' }), makeContext());
    expect(shopify.products).toHaveLength(30);
    const woo = await fetchUpstream(
      makeUpstreamConfig(`${server.url}/`, { format: 'woocommerce' }),
      makeContext(),
    );
    expect(woo.products).toHaveLength(30);
  });

  test('when the store answers 301 then the redirect is followed', async () => {
    server = await startUpstreamServer();
    const result = await fetchUpstream(
      makeUpstreamConfig(`${server.url}/moved/products.json`),
      makeContext(),
    );
    expect(result.products).toHaveLength(30);
    expect(server.requests.map((request) => request.path)).toEqual([
      '/moved/products.json',
      '/products.json',
    ]);
  });

  test('when no format is given then a native document is recognised by its shape', async () => {
    server = await startUpstreamServer();
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/catalog.json`), makeContext());
    expect(result.format).toBe('native');
    expect(result.products).toHaveLength(12);
    expect(result.requests).toBe(1);
  });
});
