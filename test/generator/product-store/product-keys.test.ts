/**
 * Each product's slug and digest by index (generator/product-store/product-keys.ts): a list
 * on disk keeps them beside its lines, so a cached fragment or an unchanged packed shard is
 * found without reading one product; an array gives the same from its products.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedFragments } from '../../../generator/cache/cached-fragments.js';
import { openFragmentStore } from '../../../generator/cache/fragment-store.js';
import { digestProduct } from '../../../generator/cache/product-digest.js';
import type { PlannedProduct, PlannedProducts } from '../../../generator/plan.js';
import { keyColumnOf } from '../../../generator/product-store/product-keys.js';
import { type StoredProducts, storeProducts } from '../../../generator/product-store/stored-products.js';
import { makeManyProducts, makeSampleConfig, makeVariedProducts } from '../../helpers/sample-plan.js';

let parent = '';
let stored: StoredProducts | undefined;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-keys-test-'));
});
afterEach(async () => {
  stored?.close();
  await rm(parent, { recursive: true, force: true });
});

function someProducts(): PlannedProduct[] {
  const config = makeSampleConfig();
  const products = [...makeVariedProducts(config), ...makeManyProducts(config, 1_500)];
  const [first] = products;
  if (first === undefined) throw new Error('the helpers made no product');
  // A slug past ASCII: the column keeps UTF-8, not one byte a character.
  products[0] = { ...first, record: { ...first.record, slug: 'jus-pressé-果汁' } };
  return products;
}

/** The list with every product read (`at` or a walk) counted. */
function counting(products: PlannedProducts): { list: PlannedProducts; reads: () => number } {
  let reads = 0;
  const list: PlannedProducts = {
    length: products.length,
    ...(products.keyColumn === undefined ? {} : { keyColumn: products.keyColumn }),
    at(index) {
      reads += 1;
      return products.at(index);
    },
    *[Symbol.iterator]() {
      for (const product of products) {
        reads += 1;
        yield product;
      }
    },
  };
  return { list, reads: () => reads };
}

describe("the products' key column", () => {
  it('when the products are stored then each index gives its slug and digest, as the array does', () => {
    const products = someProducts();
    stored = storeProducts(products, parent);
    const column = keyColumnOf(stored);
    const fromArray = keyColumnOf(products);
    products.forEach((product, index) => {
      expect(column.slug(index)).toBe(product.record.slug);
      expect(column.digest(index)).toBe(digestProduct(product));
      expect(fromArray.slug(index)).toBe(product.record.slug);
      expect(fromArray.digest(index)).toBe(column.digest(index));
    });
  });

  it('when an index past the end is asked for then it is a TypeError', () => {
    stored = storeProducts(someProducts().slice(0, 3), parent);
    const column = keyColumnOf(stored);
    expect(() => column.slug(3)).toThrow(TypeError);
    expect(() => column.digest(-1)).toThrow(TypeError);
  });

  it('when a rebuild finds its fragments and shards in the cache then it reads no product', () => {
    const products = someProducts().slice(0, 200);
    stored = storeProducts(products, parent);
    const members = [3, 1, 4, 1, 5, 9, 2, 6];
    const run = (list: PlannedProducts) => {
      const store = openFragmentStore(parent, 'settings');
      const fragments = cachedFragments(store);
      const elements = fragments.elements('kind', list, (product) => `<${product.record.slug}>`);
      const bytes = Array.from({ length: elements.length }, (_, index) => elements.read(index).toString());
      const keys = Array.from({ length: elements.length }, (_, index) => elements.key(index));
      const shard = fragments.whole('shards', 'shard-0', list, members, () =>
        members.map((member) => list.at(member)?.record.slug).join('|'),
      );
      fragments.validatedProducts(list);
      store.markValidated();
      store.close();
      return { bytes, keys, shard: shard.toString() };
    };
    const cold = counting(stored);
    const first = run(cold.list);
    expect(cold.reads()).toBeGreaterThan(0);
    const again = counting(stored);
    const second = run(again.list);
    expect(again.reads()).toBe(0);
    expect(second).toEqual(first);
    expect(first.bytes[0]).toBe(`<${products[0]?.record.slug}>`);
    expect(first.shard).toBe(members.map((member) => products[member]?.record.slug).join('|'));
  });
});
