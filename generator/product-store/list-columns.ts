/**
 * Columns taken from a list's products as they were kept (generator/catalog-tally.ts),
 * remembered for that list: a list never changes once kept, and its readers ask by it, so
 * a list that was never tallied (a plan made in a test, the gate's changed products) is
 * read as before.
 */
import type { PlannedProducts } from '../plan.js';

export class ListColumns<T extends { readonly length: number }> {
  readonly #what: string;
  readonly #byList = new WeakMap<PlannedProducts, T>();

  /** `what` names the column in its errors ("the sitemap column"). */
  constructor(what: string) {
    this.#what = what;
  }

  /** Remembers `column`, one entry per product of `products` in their order; none is nothing. */
  remember(products: PlannedProducts, column: T | undefined): void {
    if (column === undefined) return;
    if (column.length !== products.length)
      throw new TypeError(`${this.#what} holds ${column.length} products, the list ${products.length}`);
    this.#byList.set(products, column);
  }

  of(products: PlannedProducts): T | undefined {
    return this.#byList.get(products);
  }
}
