/**
 * What the build needs to know of the last good catalog: its product count (the shrink
 * guard), its `generated` time, and each product's slug, price and availability (the
 * summary diff, the stale-content check). Read from the catalog item by item, so the
 * document (263 MB at 100,000 products) is never one string nor one tree; and kept in the
 * build cache under the digest of the catalog's file (or parts manifest) when a build
 * publishes it, so the next build reads a few megabytes instead of the catalog.
 */

import { parseJsonBytes } from '../json-bytes.js';
import type { BuildPlan } from '../plan.js';
import { productFactsOf } from '../product-store/product-facts.js';
import { readJsonItems } from '../sources/json-items.js';
import { type ProductFacts, productFactOf } from '../summary/diff.js';

export interface CatalogFacts {
  /** Product count of the catalog (0 when it holds no `products` array). */
  count: number;
  generated?: string;
  products: ProductFacts[];
}

/** The facts of a catalog document read as chunks; throws when it is not one JSON document. */
export async function readCatalogFacts(chunks: AsyncIterable<Buffer>, where: string): Promise<CatalogFacts> {
  let facts: CatalogFacts = { count: 0, products: [] };
  let generated: string | undefined;
  let isArray = false;
  const options = { where, listKey: 'products', maxItemBytes: Number.MAX_SAFE_INTEGER };
  for await (const events of readJsonItems(chunks, options)) {
    for (const event of events) {
      if (event.kind === 'root') isArray = event.root === 'array';
      // As JSON.parse reads a member given twice: the last one counts.
      else if (event.kind === 'list') facts = { count: 0, products: [] };
      else if (event.kind === 'member' && event.key === 'products') facts = { count: 0, products: [] };
      else if (event.kind === 'member' && event.key === 'generated')
        generated = typeof event.value === 'string' ? event.value : undefined;
      else if (event.kind === 'item' && !isArray) {
        facts.count += 1;
        const fact = productFactOf(event.value);
        if (fact !== undefined) facts.products.push(fact);
      }
    }
  }
  // A bare array is no catalog: nothing of it counts.
  if (isArray) return { count: 0, products: [] };
  return { ...facts, ...(generated !== undefined ? { generated } : {}) };
}

/**
 * The facts of the catalog a plan emits, as `readCatalogFacts` reads them from its file:
 * its products are the records (each a JSON object, so each value reads back the same).
 */
export function factsOfPlan(plan: Pick<BuildPlan, 'catalog' | 'products'>): CatalogFacts {
  return {
    count: plan.products.length,
    ...(typeof plan.catalog.generated === 'string' ? { generated: plan.catalog.generated } : {}),
    products: [...productFactsOf(plan.products)],
  };
}

/** The facts as the build cache keeps them: JSON, each product a `[slug, price, availability]` triple. */
export function encodeCatalogFacts(facts: CatalogFacts): Buffer {
  const products = facts.products.map(({ slug, price, availability }) => [slug, price, availability]);
  return Buffer.from(JSON.stringify({ count: facts.count, generated: facts.generated, products }), 'utf8');
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The facts `encodeCatalogFacts` wrote; undefined for anything else (then the catalog is read). */
export function decodeCatalogFacts(bytes: Buffer): CatalogFacts | undefined {
  const value = parseJsonBytes(bytes);
  if (typeof value !== 'object' || value === null) return undefined;
  const { count, generated, products } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(count) || !Array.isArray(products)) return undefined;
  if (generated !== undefined && !isText(generated)) return undefined;
  const facts: ProductFacts[] = [];
  for (const item of products) {
    if (!Array.isArray(item) || item.length !== 3 || !item.every(isText)) return undefined;
    const [slug, price, availability] = item as [string, string, string];
    facts.push({ slug, price, availability });
  }
  return { count: count as number, ...(generated !== undefined ? { generated } : {}), products: facts };
}
