/**
 * The normaliser's memo (normalise/item-key.ts) in the fragment file: one row per upstream
 * item that mapped, under its upstream id with the item's digest, holding the product it
 * mapped to as JSON. A rebuild reads an unchanged item's product back instead of mapping it
 * again: at 100,000 products, mapping (HTML to text and Markdown, prices, variants) is most
 * of reading the store. Rows are under the upstream id, not the digest, so a store that lists
 * its products in id order (Shopify's bulk export, the storefront by default) is read back
 * with one forward scan; random keys cost a point query of a 64 KiB page each (4.4 s per
 * 100,000 against 0.6 s). A published build keeps only the rows it used
 * (`keepTouchedOnly`). Products round-trip through JSON whole: no field of a mapped product
 * is ever undefined or anything JSON cannot hold (test/generator/sources/normalise-memo.test.ts).
 */

import { parseJsonBytes } from '../json-bytes.js';
import type { NormaliseMemo } from '../normalise/item-key.js';
import type { NormalisedProduct } from '../normalise/types.js';
import type { FragmentStore } from './fragment-store.js';

/** The fragment kind of the mapped upstream items. */
const MAPPED_ITEMS = 'mapped-item';

export function normaliseMemo(store: FragmentStore): NormaliseMemo {
  store.keepTouchedOnly(MAPPED_ITEMS);
  return {
    recall({ id, digest }) {
      const known = store.get(MAPPED_ITEMS, id, digest);
      return known === undefined ? undefined : readProduct(known.bytes);
    },
    remember({ id, digest }, product) {
      store.put(MAPPED_ITEMS, id, digest, Buffer.from(JSON.stringify(product), 'utf8'));
    },
  };
}

/** A row as `remember` wrote it; undefined for one that is not (then the item is mapped again). */
function readProduct(bytes: Buffer): NormalisedProduct | undefined {
  const value = parseJsonBytes(bytes);
  if (typeof value !== 'object' || value === null) return undefined;
  const { sourceId, record } = value as Partial<Record<keyof NormalisedProduct, unknown>>;
  if (typeof sourceId !== 'string' || typeof record !== 'object' || record === null) return undefined;
  return value as NormalisedProduct;
}
