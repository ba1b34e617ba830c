/**
 * Where the live data's builders read the catalog from: the products in catalog order,
 * read one at a time. An array is one; so is a list on disk that parses each record back
 * when asked, returning a fresh object every time (issue 29: at 1,000,000 products the
 * records cannot all live in the heap). So a builder reads the catalog once in order with
 * `for…of` for what it keeps of every product (the search index), and reads a few
 * products again with `at` when it needs their whole records (one shard's members), and
 * never tells two records apart by identity.
 */
import type { ProductRecord } from '../record/product-record.js';

export interface RecordSource extends Iterable<ProductRecord> {
  /** How many products the catalog has; iteration yields exactly this many. */
  readonly length: number;
  /** The product at this position in catalog order; undefined outside `0…length - 1`. */
  at(index: number): ProductRecord | undefined;
}

/** The record at `index`, which the caller took from the source's own range. */
export function recordAt(source: RecordSource, index: number): ProductRecord {
  const record = source.at(index);
  if (record === undefined)
    throw new TypeError(`RecordSource: no record at ${index} of a source of ${source.length}`);
  return record;
}

/**
 * The source's records in order, each with its position, checking the iterator yields
 * `length` of them: the index and the shards number products by position, so a source
 * whose two views disagree would publish a product under another's number.
 */
export function* numberedRecords(source: RecordSource): Generator<[index: number, record: ProductRecord]> {
  let index = 0;
  for (const record of source) {
    if (index >= source.length)
      throw new TypeError(`RecordSource: iteration gave more records than its length, ${source.length}`);
    yield [index, record];
    index += 1;
  }
  if (index < source.length)
    throw new TypeError(`RecordSource: iteration gave ${index} records, its length says ${source.length}`);
}
