/**
 * The search index's filter files, cut from the builder's columns (search-index-file.ts):
 * the variants in price order in partitions by content (`prices/`), and per block of
 * products their facets (`facets/`) and price spans (`spans/`), each file made only when
 * the writer asks for it (search-partition-format.ts describes them).
 */
import { SectionWriter } from './binary-sections.js';
import { ByteWriter } from './byte-writer.js';
import { type Cuts, contentCuts, contentNames, type IndexFile } from './content-cuts.js';
import { fnv1a } from './fnv1a.js';
import type { BuiltSearchIndex } from './search-index-file.js';
import {
  facetsFile,
  HAS_AVAILABLE,
  HAS_VARIANT,
  priceFile,
  pricePartitionBytes,
  SPAN_COLUMNS,
  type SpanColumn,
  spanFile,
} from './search-partition-format.js';

/** Where each product's variants start in the variant columns, and (last) their count. */
export function variantStarts(index: BuiltSearchIndex): Float64Array {
  const starts = new Float64Array(index.ids.length + 1);
  for (let product = 0; product < index.ids.length; product += 1)
    starts[product + 1] = (starts[product] as number) + (index.variants[product] ?? 0);
  return starts;
}

export interface PriceCuts extends Cuts<number> {
  span: [number, number] | null;
  order: Uint32Array;
  productOf: Uint32Array;
}

export function priceCuts(index: BuiltSearchIndex, firstVariant: Float64Array, target: number): PriceCuts {
  const { prices, priceOrder: order } = index;
  if (order.length !== prices.length || index.ids.length >= 2 ** 31) {
    throw new TypeError(`search index: ${order.length} variants in price order for ${prices.length} prices`);
  }
  for (const price of prices) {
    if (!Number.isSafeInteger(price))
      throw new TypeError(`search index: price ${price} is not an integer of minor units`);
  }
  const productOf = new Uint32Array(prices.length);
  for (let product = 0; product < index.ids.length; product += 1)
    productOf.fill(product, firstVariant[product], firstVariant[product + 1]);
  const priceAt = (at: number): number => prices[order[at] as number] as number;
  /** An entry's key: its price, its product's id and its place among the product's variants. */
  const keyAt = (at: number): string => {
    const variant = order[at] as number;
    const product = productOf[variant] as number;
    return `${priceAt(at)} ${index.ids.at(product)} ${variant - (firstVariant[product] as number)}`;
  };
  const starts = contentCuts(
    order.length,
    (at) => fnv1a(keyAt(at)),
    () => 1,
    target,
  );
  const span: [number, number] | null = order.length > 0 ? [priceAt(0), priceAt(order.length - 1)] : null;
  return {
    starts,
    firsts: starts.map(priceAt),
    names: contentNames(starts.map(keyAt)),
    span,
    order,
    productOf,
  };
}

export function* priceFiles(index: BuiltSearchIndex, cuts: PriceCuts): Generator<IndexFile> {
  const { starts, names, order, productOf } = cuts;
  const priceAt = (at: number): number => index.prices[order[at] as number] as number;
  for (let partition = 0; partition < starts.length; partition += 1) {
    const start = starts[partition] as number;
    const end = starts[partition + 1] ?? order.length;
    const steps = new ByteWriter();
    const entries = new Uint32Array(end - start);
    for (let at = start; at < end; at += 1) {
      steps.varint(at === start ? 0 : priceAt(at) - priceAt(at - 1));
      const variant = order[at] as number;
      entries[at - start] = (productOf[variant] as number) * 2 + (index.available[variant] ?? 0);
    }
    const body = pricePartitionBytes({ first: priceAt(start), entries, steps: steps.written() });
    yield { name: priceFile(names[partition] as string), body };
  }
}

export function* facetFiles(
  index: BuiltSearchIndex,
  firstVariant: Float64Array,
  block: number,
): Generator<IndexFile> {
  for (let start = 0; start < index.ids.length; start += block) {
    const end = Math.min(index.ids.length, start + block);
    const facets = new Uint32Array(end - start);
    for (let product = start; product < end; product += 1) {
      const variants = index.variants[product] ?? 0;
      const from = firstVariant[product] as number;
      const available = index.available.subarray(from, from + variants).includes(1) ? HAS_AVAILABLE : 0;
      facets[product - start] =
        (index.category[product] ?? 0) * 4 + (variants > 0 ? HAS_VARIANT : 0) + available;
    }
    yield { name: facetsFile(start / block), body: new SectionWriter().uint32s(facets).finish() };
  }
}

/** Per product and column, its highest or lowest price (of all its variants, or those bought now), a block at a time. */
export function* spanFiles(
  index: BuiltSearchIndex,
  firstVariant: Float64Array,
  block: number,
): Generator<IndexFile> {
  const count = index.ids.length;
  for (const column of SPAN_COLUMNS) {
    for (let start = 0; start < count; start += block) {
      const end = Math.min(count, start + block);
      const values = new Float64Array(end - start);
      for (let product = start; product < end; product += 1)
        values[product - start] = spanOf(
          index,
          column,
          firstVariant[product] as number,
          firstVariant[product + 1] as number,
        );
      yield { name: spanFile(column, start / block), body: new SectionWriter().float64s(values).finish() };
    }
  }
}

/** A product's span in a column, from its variants `from` to `to`: ±Infinity when none counts. */
function spanOf(index: BuiltSearchIndex, column: SpanColumn, from: number, to: number): number {
  const highest = column === 'max' || column === 'max-available';
  const onlyAvailable = column === 'max-available' || column === 'min-available';
  let span = highest ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  for (let variant = from; variant < to; variant += 1) {
    if (onlyAvailable && index.available[variant] !== 1) continue;
    const price = index.prices[variant] as number;
    span = highest ? Math.max(span, price) : Math.min(span, price);
  }
  return span;
}
