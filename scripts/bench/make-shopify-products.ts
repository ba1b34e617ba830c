/**
 * The benchmarks' upstream: the same deterministic Shopify storefront products the tests
 * use (test/fixtures/upstream/make-products.ts, compiled into lib/ for this), so the
 * same N always gives the same bytes: three variants of a "Pack" option (12 fl oz, 3-pack,
 * 6-pack) with the cheapest not first and every 4th 6-pack on sale, every 10th product
 * coming soon or sold out, one in seven carrying quotes, `&`, `<`, emoji
 * and non-Latin text, HTML descriptions; titles and handles unique.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeShopifyProducts } from '../../test/fixtures/upstream/make-products.js';

/** Writes `{ "products": [...] }` (one storefront page holding the whole catalog) to `path`. */
export async function writeShopifyFixture(path: string, count: number): Promise<number> {
  const body = JSON.stringify({ products: makeShopifyProducts(count) });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
  return Buffer.byteLength(body);
}
