import { afterEach, describe, expect, test } from 'vitest';
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
