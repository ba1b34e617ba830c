/**
 * The normaliser's memo (normalise/item-key.ts) in the fragment file: one row per upstream
 * item that mapped, keyed by the item's key, holding the product it mapped to as JSON. A
 * rebuild reads an unchanged item's product back instead of mapping it again: at 100,000
 * products, mapping (HTML to text and Markdown, prices, variants) is most of reading the
 * store. The rows are keyed by what they were made from, so a published build keeps only
 * those it used (`keepTouchedOnly`). Products round-trip through JSON whole: no field of a
 * mapped product is ever undefined or anything JSON cannot hold (test/generator/normalise).
 */
import type { NormaliseMemo } from '../normalise/item-key.js';
import type { NormalisedProduct } from '../normalise/types.js';
import type { FragmentStore } from './fragment-store.js';

/** The fragment kind of the mapped upstream items. */
const MAPPED_ITEMS = 'mapped-item';

export function normaliseMemo(store: FragmentStore): NormaliseMemo {
  store.keepTouchedOnly(MAPPED_ITEMS);
  return {
    recall(key) {
      const known = store.get(MAPPED_ITEMS, key, '');
      return known === undefined ? undefined : readProduct(known.bytes);
    },
    remember(key, product) {
      store.put(MAPPED_ITEMS, key, '', Buffer.from(JSON.stringify(product), 'utf8'));
    },
  };
}

/** A row as `remember` wrote it; undefined for one that is not (then the item is mapped again). */
function readProduct(bytes: Buffer): NormalisedProduct | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { sourceId, record } = value as Partial<Record<keyof NormalisedProduct, unknown>>;
  if (typeof sourceId !== 'string' || typeof record !== 'object' || record === null) return undefined;
  return value as NormalisedProduct;
}
