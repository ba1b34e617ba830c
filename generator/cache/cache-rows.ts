/**
 * The build cache's product rows in memory (slug → digest and lastmod), for the rows read
 * from the cache file and the rows the dating writes: a catalog of a million products held
 * them as two Maps of strings, about 240 bytes a row each. Here a row is its slug's UTF-8
 * in a column (normalise/slug-column.ts), its SHA-256 as 32 raw bytes, and its lastmod as
 * the number of one of the few distinct times a catalog has (every product a build dated
 * shares that build's time), found by slug through a digest table confirmed against the
 * column (normalise/digest-table.ts): about the slug's bytes and 57 more, and exact.
 */
import { DigestTable, keyDigest } from '../normalise/digest-table.js';
import { SlugColumn } from '../normalise/slug-column.js';

/** A product row: its digest and when that digest last changed. */
export interface CachedProduct {
  /** SHA-256 in hex (64 lowercase digits). */
  digest: string;
  /** ISO 8601: when the product's digest last changed. */
  lastmod: string;
}

const DIGEST_BYTES = 32;
const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** True when `digest` is what a row can hold: a SHA-256 in lowercase hex. */
export function isRowDigest(digest: string): boolean {
  return HEX_DIGEST.test(digest);
}

export class CacheRows {
  readonly #slugs = new SlugColumn();
  readonly #index = new DigestTable();
  #digests: Buffer = Buffer.alloc(1024 * DIGEST_BYTES);
  #lastmods = new Uint32Array(1024);
  readonly #times: string[] = [];
  readonly #timeNumbers = new Map<string, number>();

  /** How many rows (one per slug). */
  get size(): number {
    return this.#slugs.length;
  }

  /** Sets `slug`'s row, replacing the one it had. */
  set(slug: string, row: CachedProduct): void {
    if (!isRowDigest(row.digest)) throw new TypeError(`CacheRows: ${slug}'s digest is not a SHA-256 in hex`);
    let at = this.numberOf(slug);
    if (at === undefined) {
      at = this.#slugs.length;
      this.#grow(at + 1);
      this.#slugs.set(at, slug);
      this.#index.add(keyDigest(slug), at);
    }
    this.#digests.write(row.digest, at * DIGEST_BYTES, 'hex');
    this.#lastmods[at] = this.#timeNumber(row.lastmod);
  }

  get(slug: string): CachedProduct | undefined {
    const at = this.numberOf(slug);
    return at === undefined ? undefined : this.rowAt(at);
  }

  has(slug: string): boolean {
    return this.numberOf(slug) !== undefined;
  }

  /** Every row, in the order their slugs were first set. */
  *entries(): Generator<[string, CachedProduct]> {
    for (let at = 0; at < this.#slugs.length; at += 1) yield [this.#slugs.slugAt(at) ?? '', this.rowAt(at)];
  }

  slugAt(at: number): string | undefined {
    return this.#slugs.slugAt(at);
  }

  *slugs(): Generator<string> {
    for (let at = 0; at < this.#slugs.length; at += 1) yield this.#slugs.slugAt(at) ?? '';
  }

  /** The number of `slug`'s row (rows are numbered as first set, from 0). */
  numberOf(slug: string): number | undefined {
    return this.#index.find(keyDigest(slug), (at) => this.#slugs.holds(at, slug));
  }

  /** Row number `at` (one below `size`). */
  rowAt(at: number): CachedProduct {
    const digest = this.#digests.toString('hex', at * DIGEST_BYTES, (at + 1) * DIGEST_BYTES);
    return { digest, lastmod: this.#times[this.#lastmods[at] ?? 0] ?? '' };
  }

  #timeNumber(lastmod: string): number {
    let number = this.#timeNumbers.get(lastmod);
    if (number === undefined) {
      number = this.#times.push(lastmod) - 1;
      this.#timeNumbers.set(lastmod, number);
    }
    return number;
  }

  #grow(least: number): void {
    if (least <= this.#lastmods.length) return;
    const lastmods = new Uint32Array(this.#lastmods.length * 2);
    lastmods.set(this.#lastmods);
    this.#lastmods = lastmods;
    const digests = Buffer.alloc(lastmods.length * DIGEST_BYTES);
    this.#digests.copy(digests);
    this.#digests = digests;
  }
}
