/**
 * The plan's products kept on disk (generator/product-store/stored-products.ts): read back
 * by a walk or by index, they equal what was written, each read a new object whose digest
 * came back with it; closing deletes the file, and a failed write leaves nothing behind.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOfProduct, digestProduct } from '../../../generator/cache/product-digest.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { countStoredReads, storeProducts } from '../../../generator/product-store/stored-products.js';
import { makeManyProducts, makeSampleConfig, makeVariedProducts } from '../../helpers/sample-plan.js';

let parent = '';
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-store-test-'));
});
afterEach(() => rm(parent, { recursive: true, force: true }));

/** Products with non-Latin text, emoji, HTML-like text and one description longer than the read buffer. */
function awkwardProducts(): PlannedProduct[] {
  const config = makeSampleConfig();
  const products = [...makeVariedProducts(config), ...makeManyProducts(config, 40)];
  const [first, second] = products;
  if (first === undefined || second === undefined) throw new Error('the helpers made too few products');
  products[0] = { ...first, record: { ...first.record, name: 'Ünïcødé 果汁 🍊 <b>&amp;</b>' } };
  // Two MiB of text: a line longer than the 1 MiB chunk a walk reads at once.
  products[1] = { ...second, descriptionMarkdown: `${'long line '.repeat(200_000)}end` };
  return products;
}

describe('products kept on disk', () => {
  it('when walked then they equal the products written, in order, each a new object', () => {
    const products = awkwardProducts();
    const stored = storeProducts(products, parent);
    try {
      expect(stored.length).toBe(products.length);
      const walked = [...stored];
      expect(walked).toEqual(products);
      for (const [index, product] of walked.entries()) expect(product).not.toBe(products[index]);
    } finally {
      stored.close();
    }
  });

  it('when read by index then each equals its product, and past either end there is none', () => {
    const products = awkwardProducts();
    const stored = storeProducts(products, parent);
    try {
      for (const index of [products.length - 1, 1, 0, 7, 1])
        expect(stored.at(index)).toEqual(products[index]);
      expect(stored.at(products.length)).toBeUndefined();
      expect(stored.at(-1)).toBeUndefined();
      expect(stored.at(1.5)).toBeUndefined();
    } finally {
      stored.close();
    }
  });

  it('when read by index in order then one read of the file serves many products, and out of order one each', () => {
    const products = makeManyProducts(makeSampleConfig(), 300);
    const stored = storeProducts(products, parent);
    try {
      const before = countStoredReads().fileReads;
      for (let index = 0; index < products.length; index += 1)
        expect(stored.at(index)).toEqual(products[index]);
      const inOrder = countStoredReads().fileReads - before;
      expect(inOrder).toBeGreaterThan(0);
      expect(inOrder).toBeLessThan(products.length / 10);
      // A fixed shuffle, as the shards ask by hash: each product is one read of its own line.
      const shuffled = products.map((_, index) => (index * 7919) % products.length);
      const start = countStoredReads().fileReads;
      for (const index of shuffled) expect(stored.at(index)).toEqual(products[index]);
      expect(countStoredReads().fileReads - start).toBe(products.length);
    } finally {
      stored.close();
    }
  });

  it('when a walk stops early and an index is read inside a walk then both still read right', () => {
    const products = awkwardProducts();
    const stored = storeProducts(products, parent);
    try {
      for (const product of stored) {
        expect(product).toEqual(products[0]);
        break;
      }
      let index = 0;
      for (const product of stored) {
        expect(stored.at(products.length - 1 - index)).toEqual(products[products.length - 1 - index]);
        expect(product).toEqual(products[index]);
        index += 1;
      }
      expect(index).toBe(products.length);
    } finally {
      stored.close();
    }
  });

  it('when a product is read back then its digest is the one of the product written', () => {
    const products = awkwardProducts();
    const stored = storeProducts(products, parent);
    try {
      const read = stored.at(3);
      if (read === undefined || products[3] === undefined) throw new Error('no fourth product');
      expect(digestOfProduct(read)).toBe(digestProduct(products[3]));
    } finally {
      stored.close();
    }
  });

  it('when closed then its file is gone and reading it is refused', async () => {
    const stored = storeProducts(awkwardProducts(), parent);
    expect(await readdir(parent)).toHaveLength(1);
    stored.close();
    stored.close();
    expect(await readdir(parent)).toEqual([]);
    expect(() => stored.at(0)).toThrow(/after their build closed them/);
    expect(() => [...stored]).toThrow(/after their build closed them/);
  });

  it('when the products fail while being written then no file is left behind', async () => {
    const products = awkwardProducts();
    function* failing(): Generator<PlannedProduct> {
      yield* products.slice(0, 3);
      throw new Error('the upstream broke');
    }
    expect(() => storeProducts(failing(), parent)).toThrow('the upstream broke');
    expect(await readdir(parent)).toEqual([]);
  });

  it('when there are no products then the list is empty', () => {
    const stored = storeProducts([], parent);
    try {
      expect(stored.length).toBe(0);
      expect([...stored]).toEqual([]);
      expect(stored.at(0)).toBeUndefined();
    } finally {
      stored.close();
    }
  });
});
