/**
 * What the build cache's dating found, product by product, against the rows it read from
 * the cache file. Without rows read (a cache created or rebuilt), every dated row is kept:
 * the new cache file is written from them. With them, a product whose digest is the cached
 * one changes no row, so only a byte marks it as dated (a cached row no product dated is a
 * product gone), and only the rows of new or changed products are kept: a rebuild of a big
 * catalog where little changed holds about one byte per unchanged product, not a second
 * copy of its row.
 */
import { type CachedProduct, CacheRows } from './cache-rows.js';

export class DatedRows {
  readonly #cached: CacheRows | undefined;
  /** Every row dated without rows read; the new and changed ones with them. */
  readonly #rows = new CacheRows();
  /** By cached row number: 1 once a product dated it. */
  readonly #seen: Uint8Array;
  #seenCount = 0;

  constructor(cached?: CacheRows) {
    this.#cached = cached;
    this.#seen = new Uint8Array(cached?.size ?? 0);
  }

  /** Notes `slug`'s row as the dating gave it. */
  note(slug: string, row: CachedProduct): void {
    const at = this.#cached?.numberOf(slug);
    if (at === undefined) {
      this.#rows.set(slug, row);
      return;
    }
    if (this.#seen[at] === 0) {
      this.#seen[at] = 1;
      this.#seenCount += 1;
    }
    if (this.#cached?.rowAt(at).digest !== row.digest) this.#rows.set(slug, row);
  }

  /** True when a product was added, removed or changed against the rows read; undefined without them. */
  changed(): boolean | undefined {
    if (this.#cached === undefined) return undefined;
    return this.#rows.size > 0 || this.#seenCount !== this.#cached.size;
  }

  /** The rows to write: every row without rows read, else the new and changed ones. */
  rows(): Iterable<[string, CachedProduct]> {
    return this.#rows.entries();
  }

  /** The slugs of the rows read that no product dated. */
  removedSlugs(): string[] {
    const cached = this.#cached;
    const removed: string[] = [];
    if (cached === undefined) return removed;
    for (let at = 0; at < cached.size; at += 1)
      if (this.#seen[at] === 0) removed.push(cached.slugAt(at) ?? '');
    return removed;
  }
}
