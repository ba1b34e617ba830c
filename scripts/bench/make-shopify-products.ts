/**
 * The benchmarks' upstream file: the same deterministic Shopify storefront products the
 * tests use, written a batch at a time (test/fixtures/upstream/write-products.ts, compiled
 * into lib/ for this), so the same N always gives the same bytes.
 */
export { type FixtureOptions, writeShopifyFixture } from '../../test/fixtures/upstream/write-products.js';
