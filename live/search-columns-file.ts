/**
 * The filter columns of the live search index as the generator writes them: each product's
 * category, each variant's price in minor units and availability, and the variants sorted
 * by (price, variant number), so the handler answers a price filter with a binary search
 * over that order instead of a pass over every variant (issue 30). This is the pure core
 * of the writer: it takes plain rows, not product records, so a benchmark can write the
 * columns of 1,000,000 synthetic products without building them.
 */
import { bytesToBase64 } from './base64-bytes.js';
import { GrowableArray } from './growable-array.js';

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

/**
 * The columns as the builder keeps them until the partition files are cut: typed arrays, a
 * few bytes a product or variant (the `ColumnsFile` spells the same values out as JSON).
 */
export interface BuiltColumns {
  categories: string[];
  category: Uint32Array;
  variants: Uint32Array;
  prices: Float64Array;
  /** Per variant, 1 when it can be bought now, else 0. */
  available: Uint8Array;
  /** Every variant number, ordered by price and then variant number. */
  priceOrder: Uint32Array;
}

/** The columns of these products, in catalog order. */
export function buildColumnsFile(rows: Iterable<ColumnsRow>): ColumnsFile {
  const builder = new ColumnsBuilder();
  for (const row of rows) builder.add(row);
  return columnsFileOf(builder.finish());
}

/** The columns as the whole index file writes them. */
export function columnsFileOf(columns: BuiltColumns): ColumnsFile {
  return {
    categories: columns.categories,
    category: Array.from(columns.category),
    variants: Array.from(columns.variants),
    prices: Array.from(columns.prices),
    available: latin1Text(columns.available.map((bit) => (bit === 1 ? ONE : ZERO))),
    price_order: bytesToBase64(littleEndianBytes(columns.priceOrder)),
  };
}

/**
 * The columns gathered a product at a time, as typed arrays (the search index's builder
 * keeps nothing else of a product's offers): a few bytes a variant, no object per product
 * or variant.
 */
export class ColumnsBuilder {
  private readonly categories: string[] = [];
  private readonly categoryOf = new Map<string, number>();
  private readonly category: GrowableArray<Uint32Array>;
  private readonly variants: GrowableArray<Uint32Array>;
  private readonly prices = new GrowableArray((length) => new Float64Array(length));
  private readonly available = new GrowableArray((length) => new Uint8Array(length));

  /** `count`: how many products there will be, when known (their columns then take no spare room). */
  constructor(count?: number) {
    this.category = new GrowableArray((length) => new Uint32Array(length), count);
    this.variants = new GrowableArray((length) => new Uint32Array(length), count);
  }

  add(row: ColumnsRow): void {
    const name = (row.category ?? '').trim().toLowerCase();
    let position = this.categoryOf.get(name);
    if (position === undefined) {
      position = this.categories.length;
      this.categoryOf.set(name, position);
      this.categories.push(name);
    }
    this.category.push(position);
    this.variants.push(row.offers.length);
    for (const offer of row.offers) {
      this.prices.push(offer.amount);
      this.available.push(offer.available ? 1 : 0);
    }
  }

  /** The bytes the columns hold now (spare room included): what a test bounds a product by. */
  get byteLength(): number {
    return (
      this.category.byteLength + this.variants.byteLength + this.prices.byteLength + this.available.byteLength
    );
  }

  finish(): BuiltColumns {
    const prices = this.prices.take();
    const priceOrder = new Uint32Array(prices.length);
    for (let variant = 0; variant < priceOrder.length; variant += 1) priceOrder[variant] = variant;
    priceOrder.sort((a, b) => (prices[a] as number) - (prices[b] as number) || a - b);
    return {
      categories: this.categories,
      category: this.category.take(),
      variants: this.variants.take(),
      prices,
      available: this.available.take(),
      priceOrder,
    };
  }
}

/** The character codes of "0" and "1", as the `available` column spells them. */
const ZERO = 0x30;
const ONE = 0x31;
/** Characters per String.fromCharCode call: well below every engine's argument limit. */
const TEXT_CHUNK = 0x8000;

/** Bytes below 0x80 as the text of those character codes, one call per chunk. */
function latin1Text(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += TEXT_CHUNK) {
    parts.push(String.fromCharCode(...bytes.subarray(start, start + TEXT_CHUNK)));
  }
  return parts.join('');
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
