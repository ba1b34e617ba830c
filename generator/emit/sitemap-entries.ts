/**
 * What the sitemap needs of each product (sitemap.ts): its slug, its URL and its
 * `lastmod`. A list on disk would be walked and every product parsed for these alone
 * (about 3 s at 100,000 products), so they are taken as the products are kept
 * (catalog-tally.ts) into a column of a few bytes a product: the URL as the slug between
 * a prefix and a suffix most products share (`https://shop.example/products/` and ``),
 * named by a 16-bit code, and the time as a number. A catalog the column cannot hold
 * exactly (a URL without its slug, a time that does not read back as written, too many
 * prefixes) keeps no column, and the sitemap walks its products as before.
 */
import type { PlannedProduct, PlannedProducts } from '../plan.js';
import { ListColumns } from '../product-store/list-columns.js';
import { keyColumnOf } from '../product-store/product-keys.js';

/** The W3C Datetime forms the protocol accepts for `lastmod`; the emitter and the checker share it. */
export const W3C_DATETIME = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** A product as the sitemap lists it; no `lastmod` means the build's time. */
export interface SitemapProduct {
  slug: string;
  url: string;
  lastmod: string | undefined;
}

/**
 * The upstream time when it is already a W3C Datetime (`Date.parse` also accepts forms
 * such as RFC 2822 dates that the protocol refuses), else the time the build cache says
 * the product last changed, else (a plan built without the cache) none.
 */
function lastmodOf(product: PlannedProduct): string | undefined {
  const { updatedAt, changedAt } = product;
  if (updatedAt !== undefined && W3C_DATETIME.test(updatedAt)) return updatedAt;
  return changedAt;
}

/** Codes are 16-bit; the last one is never given. */
const MOST_AFFIXES = 0xffff;

interface SitemapColumn {
  readonly length: number;
  url(index: number, slug: string): string;
  lastmod(index: number): string | undefined;
}

export class SitemapColumnWriter {
  #codes = new Uint16Array(1024);
  #times = new Float64Array(1024);
  #count = 0;
  readonly #affixes: [prefix: string, suffix: string][] = [];
  readonly #codeOf = new Map<string, number>();
  /** Set once a product cannot be held exactly: then no column is given. */
  #failed = false;

  add(product: PlannedProduct): void {
    if (this.#failed) return;
    const { slug, url } = product.record;
    const at = url.lastIndexOf(slug);
    const lastmod = lastmodOf(product);
    const time = lastmod === undefined ? Number.NaN : lastmodTime(lastmod);
    // Only a time that reads back as the same text is kept as a number.
    if (at < 0 || slug === '' || (lastmod !== undefined && Number.isNaN(time))) {
      this.#failed = true;
      return;
    }
    const code = this.#codeFor(url.slice(0, at), url.slice(at + slug.length));
    if (code === undefined) return;
    if (this.#count >= this.#codes.length) this.#grow();
    this.#codes[this.#count] = code;
    this.#times[this.#count] = time;
    this.#count += 1;
  }

  #codeFor(prefix: string, suffix: string): number | undefined {
    const key = `${prefix}\n${suffix}`;
    let code = this.#codeOf.get(key);
    if (code === undefined) {
      code = this.#affixes.length;
      if (code >= MOST_AFFIXES) {
        this.#failed = true;
        return undefined;
      }
      this.#affixes.push([prefix, suffix]);
      this.#codeOf.set(key, code);
    }
    return code;
  }

  #grow(): void {
    const codes = new Uint16Array(this.#codes.length * 2);
    codes.set(this.#codes);
    this.#codes = codes;
    const times = new Float64Array(this.#times.length * 2);
    times.set(this.#times);
    this.#times = times;
  }

  /** The column of the products added, or undefined when one of them could not be held. */
  finish(): SitemapColumn | undefined {
    if (this.#failed) return undefined;
    const length = this.#count;
    const codes = this.#codes.slice(0, length);
    const times = this.#times.slice(0, length);
    const affixes = [...this.#affixes];
    return {
      length,
      url(index, slug) {
        const [prefix, suffix] = affixes[codes[index] ?? MOST_AFFIXES] ?? [];
        if (prefix === undefined) throw new TypeError(`the sitemap column has no product at ${index}`);
        return `${prefix}${slug}${suffix}`;
      },
      lastmod(index) {
        const time = times[index] ?? Number.NaN;
        return Number.isNaN(time) ? undefined : new Date(time).toISOString();
      },
    };
  }
}

/**
 * A lastmod as the number it is kept as (milliseconds), when that number reads back as the
 * same text (`toISOString`, the form the build cache dates products in); NaN for any other
 * text, which only its text can keep.
 */
export function lastmodTime(text: string): number {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text ? time : Number.NaN;
}

const columns = new ListColumns<SitemapColumn>('the sitemap column');

/** Remembers the column taken from `products`, in their order, when there is one. */
export function rememberSitemapColumn(products: PlannedProducts, column: SitemapColumn | undefined): void {
  columns.remember(products, column);
}

/** Each product's slug, URL and lastmod in plan order: from the column when the list has one. */
export function* sitemapProductsOf(products: PlannedProducts): Generator<SitemapProduct> {
  const column = columns.of(products);
  if (column === undefined) {
    for (const product of products)
      yield { slug: product.record.slug, url: product.record.url, lastmod: lastmodOf(product) };
    return;
  }
  const keys = keyColumnOf(products);
  for (let index = 0; index < column.length; index += 1) {
    const slug = keys.slug(index);
    yield { slug, url: column.url(index, slug), lastmod: column.lastmod(index) };
  }
}
