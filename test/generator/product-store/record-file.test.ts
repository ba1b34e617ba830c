/**
 * The normaliser's products in a file (record-file.ts) and the shelf that moves them there
 * at its threshold (product-shelf.ts): read back by number as written, a replaced number
 * reads its new value, and closing deletes the folder.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NormalisedProduct } from '../../../generator/normalise/types.js';
import { spillingShelf } from '../../../generator/product-store/product-shelf.js';
import { createRecordFile } from '../../../generator/product-store/record-file.js';

let parent = '';
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-records-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

function product(index: number): NormalisedProduct {
  return {
    sourceId: String(index),
    record: { slug: `p-${index}`, name: `Pêche ${index} 🍑` },
  } as NormalisedProduct;
}

describe('a records file', () => {
  it('when values are pushed, one replaced, then each number reads its last value', () => {
    const file = createRecordFile<NormalisedProduct>(parent);
    for (let index = 0; index < 3000; index += 1) file.push(product(index));
    file.set(7, product(9999));
    expect(file.length).toBe(3000);
    expect(file.at(0)).toEqual(product(0));
    expect(file.at(7)).toEqual(product(9999));
    expect(file.at(2999)).toEqual(product(2999));
    expect(file.at(3000)).toBeUndefined();
    expect(() => file.set(3000, product(1))).toThrow(TypeError);
    file.close();
    file.close();
    expect(() => file.at(0)).toThrow(/after it was closed/);
  });

  it('when closed then its folder is gone', async () => {
    const file = createRecordFile<NormalisedProduct>(parent);
    file.push(product(1));
    expect(await readdir(parent)).toHaveLength(1);
    file.close();
    expect(await readdir(parent)).toEqual([]);
  });
});

describe('a spilling shelf', () => {
  it('when the products reach the threshold then they move to a file and read the same', async () => {
    const shelf = spillingShelf(3, parent);
    shelf.push(product(0));
    shelf.push(product(1));
    expect(shelf.inHeap()).toHaveLength(2);
    expect(await readdir(parent)).toEqual([]);
    shelf.push(product(2));
    shelf.set(0, product(5));
    expect(shelf.inHeap()).toBeUndefined();
    expect(await readdir(parent)).toHaveLength(1);
    expect([0, 1, 2].map((index) => shelf.at(index))).toEqual([product(5), product(1), product(2)]);
    shelf.close();
    expect(await readdir(parent)).toEqual([]);
  });

  it('when the threshold is 0 then the first product goes to the file, and none makes no file', async () => {
    const empty = spillingShelf(0, parent);
    expect(empty.inHeap()).toEqual([]);
    expect(await readdir(parent)).toEqual([]);
    const shelf = spillingShelf(0, parent);
    shelf.push(product(0));
    expect(shelf.inHeap()).toBeUndefined();
    shelf.close();
  });
});
