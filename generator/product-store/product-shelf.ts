/**
 * The normaliser's shelf for a build that may be big: an array while the products are
 * fewer than `from`, moved into a file (record-file.ts) as the product that reaches `from`
 * arrives, and appended to that file from then on. The decision is taken on the products
 * kept as they arrive, since a source does not say how many it will send: a catalog that
 * reaches the threshold before the merge drops some (a refused grouped product) stays on
 * disk, and its bundle is the same either way. A threshold of 0 puts the first product on
 * disk (an empty catalog has no file).
 */
import type { ProductShelf } from '../normalise/product-shelf.js';
import type { NormalisedProduct } from '../normalise/types.js';
import { createRecordFile, type RecordFile } from './record-file.js';

export function spillingShelf(from: number, parent?: string): ProductShelf {
  let heap: NormalisedProduct[] | undefined = [];
  let file: RecordFile<NormalisedProduct> | undefined;
  const spill = (products: NormalisedProduct[]): RecordFile<NormalisedProduct> => {
    const created = createRecordFile<NormalisedProduct>(parent);
    try {
      for (const product of products) created.push(product);
    } catch (error) {
      created.close();
      throw error;
    }
    return created;
  };
  return {
    get length() {
      return file?.length ?? heap?.length ?? 0;
    },
    at: (index) => (file !== undefined ? file.at(index) : heap?.[index]),
    push(product) {
      if (heap !== undefined && heap.length + 1 >= Math.max(from, 1)) {
        file = spill(heap);
        heap = undefined;
      }
      if (file !== undefined) file.push(product);
      else heap?.push(product);
    },
    set(index, product) {
      if (file !== undefined) file.set(index, product);
      else if (heap !== undefined) heap[index] = product;
    },
    inHeap: () => heap,
    close() {
      file?.close();
    },
  };
}
