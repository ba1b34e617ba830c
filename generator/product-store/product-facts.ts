/**
 * Each product's price and availability by index, taken once as the products are kept
 * (generator/catalog-tally.ts) and remembered for their list: with the slugs of the key
 * column they are the facts the summary diff and the build cache's catalog facts need
 * (summary/diff.ts), so neither parses the products again. A few bytes a product: the
 * price's text and one byte naming its availability.
 */
import type { ProductRecord } from '../model.js';
import type { PlannedProducts } from '../plan.js';
import type { ProductFacts } from '../summary/diff.js';
import { ListColumns } from './list-columns.js';
import { keyColumnOf } from './product-keys.js';
import { TextColumnWriter } from './text-column.js';

export interface ProductFactColumn {
  readonly length: number;
  price(index: number): string;
  availability(index: number): string;
}

/** The availabilities are a handful of names (the record's enum): one byte each names one. */
const MOST_AVAILABILITIES = 256;

export class FactColumnWriter {
  readonly #prices = new TextColumnWriter('prices');
  #codes = new Uint8Array(1024);
  readonly #names: string[] = [];
  readonly #codeOf = new Map<string, number>();

  /** The record's facts as `productFactOf` reads them from the catalog: each value as text. */
  add(record: Pick<ProductRecord, 'price' | 'availability'>): void {
    const availability = String(record.availability);
    let code = this.#codeOf.get(availability);
    if (code === undefined) {
      code = this.#names.length;
      if (code >= MOST_AVAILABILITIES)
        throw new RangeError(`FactColumnWriter: more than ${MOST_AVAILABILITIES} availabilities`);
      this.#names.push(availability);
      this.#codeOf.set(availability, code);
    }
    const index = this.#prices.count;
    if (index >= this.#codes.length) {
      const codes = new Uint8Array(this.#codes.length * 2);
      codes.set(this.#codes);
      this.#codes = codes;
    }
    this.#codes[index] = code;
    this.#prices.add(String(record.price));
  }

  finish(): ProductFactColumn {
    const length = this.#prices.count;
    const prices = this.#prices.finish();
    const codes = this.#codes.slice(0, length);
    const names = [...this.#names];
    const mustHave = (index: number) => {
      if (!Number.isInteger(index) || index < 0 || index >= length)
        throw new TypeError(`the product facts have no product at ${index} of ${length}`);
    };
    return {
      length,
      price(index) {
        mustHave(index);
        return prices(index);
      },
      availability(index) {
        mustHave(index);
        return names[codes[index] ?? 0] ?? '';
      },
    };
  }
}

const factColumns = new ListColumns<ProductFactColumn>('the product facts');

/** Remembers `column` as the facts of `products`, taken from them in their order. */
export function rememberFactColumn(products: PlannedProducts, column: ProductFactColumn): void {
  factColumns.remember(products, column);
}

/**
 * Each product's slug, price and availability in plan order: from the remembered column
 * and the key column when the list has them (no product read), else from the records.
 */
export function* productFactsOf(products: PlannedProducts): Generator<ProductFacts> {
  const column = factColumns.of(products);
  if (column === undefined) {
    for (const { record } of products)
      yield { slug: record.slug, price: String(record.price), availability: String(record.availability) };
    return;
  }
  const keys = keyColumnOf(products);
  for (let index = 0; index < column.length; index += 1)
    yield { slug: keys.slug(index), price: column.price(index), availability: column.availability(index) };
}
