/**
 * The plan's records as the array the gate reads in the catalog and `kb/products.json`,
 * without a copy of the catalog: for a list on disk (stored-products.ts) an array whose
 * elements are read back as they are indexed or walked, and let go as soon as the reader
 * moves on. A full copy for the gate was the peak of a big build, and each copy made per
 * reader was garbage made faster than collected.
 *
 * It is read-only and looks like any array to its readers (`Array.isArray`, `length`,
 * indexing, `for…of`, the array methods, JSON Schema validation, `JSON.stringify`).
 */
import type { ProductRecord } from '../model.js';
import type { PlannedProducts } from '../plan.js';
import { mapProducts } from './planned-products.js';

/** A canonical array index, as a property key: "0", "17", never "01" or "1.5". */
function indexOf(key: string | symbol, length: number): number | undefined {
  if (typeof key !== 'string' || !/^(?:0|[1-9][0-9]*)$/.test(key)) return undefined;
  const index = Number(key);
  return index < length ? index : undefined;
}

export function recordsView(products: PlannedProducts): readonly ProductRecord[] {
  // A list in memory: its records themselves, an array of references.
  if (Array.isArray(products)) return mapProducts(products, (product) => product.record);
  const { length } = products;
  // The last record read: a reader that looks at `records[i]` twice reads it once.
  let last: { index: number; record: ProductRecord | undefined } | undefined;
  const recordAt = (index: number): ProductRecord | undefined => {
    if (last?.index !== index) last = { index, record: products.at(index)?.record };
    return last.record;
  };
  const refuse = (): boolean => {
    throw new TypeError('the catalog records read back from disk are read-only');
  };
  return new Proxy([] as ProductRecord[], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      if (key === Symbol.iterator) {
        return function* () {
          for (const product of products) yield product.record;
        };
      }
      const index = indexOf(key, length);
      return index === undefined ? Reflect.get(target, key, receiver) : recordAt(index);
    },
    has(target, key) {
      return indexOf(key, length) !== undefined || Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      const index = indexOf(key, length);
      if (index === undefined) {
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        return key === 'length' && own !== undefined ? { ...own, value: length } : own;
      }
      return { value: recordAt(index), writable: false, enumerable: true, configurable: true };
    },
    ownKeys(target) {
      return [...Array.from({ length }, (_, index) => String(index)), ...Reflect.ownKeys(target)];
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}
