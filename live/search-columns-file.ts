/**
 * The filter columns of the live search index as the generator writes them: each product's
 * category, each variant's price in minor units and availability, and the variants sorted
 * by (price, variant number), so the handler answers a price filter with a binary search
 * over that order instead of a pass over every variant (issue 30). This is the pure core
 * of the writer: it takes plain rows, not product records, so a benchmark can write the
 * columns of 1,000,000 synthetic products without building them.
 */
import { bytesToBase64 } from './base64-bytes.js';

/** One product as the filters see it. */
export interface ColumnsRow {
  /** The product's category as written ("" or absent for none). */
  category: string | undefined;
  /** Its variants in order: price in minor units, and whether it can be bought now. */
  offers: readonly { amount: number; available: boolean }[];
}

export interface ColumnsFile {
  /** Distinct categories, lower-cased ("" for none). */
  categories: string[];
  /** Per product, its category's position in `categories`. */
  category: number[];
  /** Per product, how many variants it has (their prices follow in `prices`, in order). */
  variants: number[];
  /** Per variant, the price in minor units. */
  prices: number[];
  /** Per variant, "1" when it can be bought now, else "0". */
  available: string;
  /**
   * Base64: every variant number as an unsigned 32-bit little-endian integer, ordered by
   * price and then variant number, so the variants within a price range are one run.
   */
  price_order: string;
}

/** The columns of these products, in catalog order. */
export function buildColumnsFile(rows: Iterable<ColumnsRow>): ColumnsFile {
  const categories: string[] = [];
  const categoryOf = new Map<string, number>();
  const category: number[] = [];
  const variants: number[] = [];
  const prices: number[] = [];
  const available: string[] = [];
  for (const row of rows) {
    const name = (row.category ?? '').trim().toLowerCase();
    let position = categoryOf.get(name);
    if (position === undefined) {
      position = categories.length;
      categoryOf.set(name, position);
      categories.push(name);
    }
    category.push(position);
    variants.push(row.offers.length);
    for (const offer of row.offers) {
      prices.push(offer.amount);
      available.push(offer.available ? '1' : '0');
    }
  }
  const order = new Uint32Array(prices.length);
  for (let variant = 0; variant < order.length; variant += 1) order[variant] = variant;
  order.sort((a, b) => (prices[a] as number) - (prices[b] as number) || a - b);
  return {
    categories,
    category,
    variants,
    prices,
    available: available.join(''),
    price_order: bytesToBase64(littleEndianBytes(order)),
  };
}

/** The bytes of 32-bit unsigned integers, little-endian whatever the platform's order. */
export function littleEndianBytes(values: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < values.length; index += 1)
    view.setUint32(index * 4, values[index] as number, true);
  return bytes;
}

/** Reads what `littleEndianBytes` wrote: a view over the bytes on a little-endian platform, a copy elsewhere. */
export function readUint32LittleEndian(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new TypeError(`a 32-bit column of ${bytes.length} bytes is cut short`);
  const count = bytes.length / 4;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const values = new Uint32Array(count);
  for (let index = 0; index < count; index += 1) values[index] = view.getUint32(index * 4, true);
  return values;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
