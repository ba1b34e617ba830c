/**
 * A deterministic Shopify storefront catalog of N products for the benchmarks: the same
 * N always gives the same bytes. It follows the rules of the test fixtures
 * (test/fixtures/upstream/make-products.ts, which is not compiled into lib/): three
 * variants with the cheapest not first, every 10th product coming soon or sold out, one
 * in seven carrying quotes, `&`, `<`, emoji and non-Latin text, HTML descriptions. The
 * titles and handles are unique, so every product survives de-duplication.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface ShopifyVariant {
  id: number;
  title: string;
  price: string;
  available: boolean;
  compare_at_price: string | null;
  sku: string;
  product_id: number;
  position: number;
}

export interface ShopifyProduct {
  id: number;
  title: string;
  handle: string;
  body_html: string;
  published_at: string;
  created_at: string;
  updated_at: string;
  vendor: string;
  product_type: string;
  tags: string[];
  variants: ShopifyVariant[];
  images: { id: number; src: string; position: number; width: number; height: number }[];
}

const FLAVORS = [
  'Green Glow',
  'Citrus Sunrise',
  'Beet Boost',
  'Ginger Zinger',
  'Carrot Gold',
  'Watermelon Mint',
  'Pineapple Turmeric',
  'Berry Bliss',
  'Cucumber Cooler',
  'Apple Fennel',
  'Pomegranate Rush',
] as const;

/** mulberry32: a tiny seeded PRNG, so the spread of prices is reproducible. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function describeProduct(index: number): { title: string; handle: string; bodyHtml: string } {
  const flavor = FLAVORS[index % FLAVORS.length] ?? 'Juice';
  const handle = `${flavor.toLowerCase().replace(/\s+/g, '-')}-${index}`;
  if (index % 7 === 2) {
    return {
      title: `Piña & Mango "Sunrise" <Limited> 🍍 抹茶 ${index}`,
      handle,
      bodyHtml:
        '<p>Sweet &amp; tangy <strong>piña</strong> &lt;3 — with <a href="https://x.example/y">matcha 抹茶</a> 🍍</p>\n<ul><li>12&nbsp;fl&nbsp;oz</li><li>Glass bottle</li></ul>',
    };
  }
  return {
    title: `${flavor} Cold-Pressed Juice ${index}`,
    handle,
    bodyHtml: `<p>Cold-pressed daily from organic produce.</p><p>Batch ${index}, bottled in glass.</p>`,
  };
}

export function makeShopifyProduct(index: number): ShopifyProduct {
  const id = 7_000_000 + index;
  const base = 399 + Math.floor(createRandom(100_003 + index)() * 1200);
  const kind = index % 10;
  const soldOut = kind === 7;
  const { title, handle, bodyHtml } = describeProduct(index);
  const variant = (n: number, name: string, cents: number, available: boolean): ShopifyVariant => ({
    id: id * 10 + n,
    title: name,
    price: formatCents(cents),
    available,
    compare_at_price: null,
    sku: `JC-${index}-${n}`,
    product_id: id,
    position: n,
  });
  const stamp = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  return {
    id,
    title,
    handle,
    body_html: bodyHtml,
    published_at: stamp,
    created_at: stamp,
    updated_at: stamp,
    vendor: 'Pomona Press Juice Co.',
    product_type: 'Juice',
    tags: kind === 3 ? ['organic', 'coming-soon'] : ['organic', 'cold-pressed'],
    variants: [
      variant(3, '6-pack', base * 6 - 300, !soldOut),
      variant(1, '12 fl oz', base, !soldOut && kind !== 5),
      variant(2, '3-pack', base * 3 - 100, !soldOut),
    ],
    images:
      index % 11 === 4
        ? []
        : [
            {
              id: id * 10,
              src: `https://cdn.shop.example/files/${handle}.jpg`,
              position: 1,
              width: 800,
              height: 800,
            },
          ],
  };
}

export function makeShopifyProducts(count: number): ShopifyProduct[] {
  return Array.from({ length: count }, (_, index) => makeShopifyProduct(index));
}

/** Writes `{ "products": [...] }` (one storefront page holding the whole catalog) to `path`. */
export async function writeShopifyFixture(path: string, count: number): Promise<number> {
  const body = JSON.stringify({ products: makeShopifyProducts(count) });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
  return Buffer.byteLength(body);
}
