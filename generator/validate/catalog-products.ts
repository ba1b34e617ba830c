/**
 * The catalog's products as the consistency check compares them, without their text: each
 * product's URL, slug and price as 8-byte digests (`digests.ts`), its currency, availability,
 * shipping sentence and directory as numbers into small tables of the values the catalog
 * repeats, all in typed arrays by the product's place in the catalog. A URL is looked up by
 * binary search over the sorted URL digests. What a message quotes (a slug, a price, a URL)
 * is read again from the catalog for the few products that need it (`productTexts`).
 */
import { canonicalPrice } from '../../record/decimal-price.js';
import type { Availability } from '../model.js';
import { isRecord, stringField } from './bundle-layout.js';
import { DigestColumn, digestOf, NumberColumn, repeatedDigests, SortedDigests } from './digests.js';
import { ValueTable } from './value-table.js';

const NO_IDS: readonly string[] = [];

export function readVariantIds(record: unknown): readonly string[] {
  if (!isRecord(record) || !Array.isArray(record.variants)) return NO_IDS;
  const ids = record.variants.flatMap((variant) => stringField(variant, 'id') ?? []);
  return ids.length === 0 ? NO_IDS : ids;
}

const HAS_URL = 1;
const HAS_VARIANTS = 2;
/** The one product of those sharing a URL that the documents are compared with and reported as missing. */
const LISTED = 4;

/** A catalog product without variants, which the feed compares by its own slug and price. */
export interface LegacyProduct {
  slug: string;
  price: string;
}

export interface Repeats {
  urls: Set<bigint>;
  slugs: Set<bigint>;
  variantIds: Set<bigint>;
}

export class CatalogProductsBuilder {
  readonly #urls = new DigestColumn();
  readonly #urlOwners = new NumberColumn();
  readonly #slugs = new DigestColumn();
  readonly #prices = new DigestColumn();
  readonly #priceValues = new DigestColumn();
  readonly #currencies = new NumberColumn();
  readonly #availabilities = new NumberColumn();
  readonly #shippings = new NumberColumn();
  readonly #directories = new NumberColumn();
  readonly #flags = new NumberColumn();
  /** Every variant id of the products with a URL, in catalog order, and where each product's begin. */
  readonly #variantIds = new DigestColumn();
  readonly #variantStarts = new NumberColumn();
  /** Slugs of products with a URL, for the duplicate check only. */
  readonly #listedSlugs = new DigestColumn();
  readonly #legacy = new Map<number, LegacyProduct>();
  readonly #values = new ValueTable();
  #repeats: Repeats | undefined;

  /** One catalog record, at the next place; one without a URL only takes its place. */
  add(record: unknown, url: string | undefined): void {
    const place = this.#flags.length;
    const slug = stringField(record, 'slug') ?? '';
    const price = stringField(record, 'price') ?? '';
    const hasVariants = isRecord(record) && Array.isArray(record.variants);
    const variantIds = url === undefined ? NO_IDS : readVariantIds(record);
    const slugDigest = digestOf(slug);
    this.#slugs.push(slugDigest);
    this.#prices.push(digestOf(price));
    this.#priceValues.push(digestOf(canonicalPrice(price)));
    this.#currencies.push(this.#values.numberOf(stringField(record, 'currency') ?? ''));
    this.#availabilities.push(this.#values.numberOf(stringField(record, 'availability') ?? 'in_stock'));
    this.#shippings.push(this.#values.numberOf(stringField(record, 'shipping')));
    this.#directories.push(this.#values.numberOf(url === undefined ? undefined : directoryOf(url)));
    this.#flags.push((url === undefined ? 0 : HAS_URL | LISTED) | (hasVariants ? HAS_VARIANTS : 0));
    this.#variantStarts.push(this.#variantIds.length);
    if (url === undefined) return;
    this.#urls.push(digestOf(url));
    this.#urlOwners.push(place);
    this.#listedSlugs.push(slugDigest);
    for (const id of variantIds) this.#variantIds.push(digestOf(id));
    if (!hasVariants) this.#legacy.set(place, { slug, price });
  }

  /** The digests of urls, slugs and variant ids that repeat (set by `finish`), or undefined when none does. */
  repeats(): Repeats | undefined {
    return this.#repeats;
  }

  finish(): CatalogProducts {
    const byUrl = new SortedDigests(this.#urls.finish(), this.#urlOwners.finish());
    const flags = this.#flags.finish();
    this.#variantStarts.push(this.#variantIds.length);
    const variantIds = this.#variantIds.finish();
    const sources = new Map<number, number>();
    const columns = {
      slugs: this.#slugs.finish(),
      prices: this.#prices.finish(),
      priceValues: this.#priceValues.finish(),
      currencies: this.#currencies.finish(),
      availabilities: this.#availabilities.finish(),
      shippings: this.#shippings.finish(),
      directories: this.#directories.finish(),
      flags,
      variantIds,
      variantStarts: this.#variantStarts.finish(),
    };
    const repeatedUrls = repeatedDigests(byUrl.digests);
    let size = byUrl.digests.length;
    for (const digest of repeatedUrls) size -= adoptLast(byUrl, digest, columns, sources, this.#legacy);
    const slugs = repeatedDigests(this.#listedSlugs.finish());
    const repeatedIds = repeatedDigests(variantIds);
    if (repeatedUrls.size + slugs.size + repeatedIds.size > 0)
      this.#repeats = { urls: repeatedUrls, slugs, variantIds: repeatedIds };
    return new CatalogProducts(size, byUrl, columns, this.#values.values, sources, this.#legacy);
  }
}

interface Columns {
  slugs: BigUint64Array;
  prices: BigUint64Array;
  priceValues: BigUint64Array;
  currencies: Uint32Array;
  availabilities: Uint32Array;
  shippings: Uint32Array;
  directories: Uint32Array;
  flags: Uint32Array;
  variantIds: BigUint64Array;
  /** Where each place's variant ids begin in `variantIds` (one more entry than places). */
  variantStarts: Uint32Array;
}

/**
 * Products sharing a URL are one product to the documents, as a map by URL made them: in
 * the first one's place (its order) with the last one's fields; the others are not listed.
 */
function adoptLast(
  byUrl: SortedDigests,
  digest: bigint,
  columns: Columns,
  sources: Map<number, number>,
  legacy: Map<number, LegacyProduct>,
): number {
  const start = byUrl.find(digest);
  let end = start;
  while (byUrl.digests[end + 1] === digest) end += 1;
  const first = byUrl.owners[start] ?? 0;
  const last = byUrl.owners[end] ?? 0;
  for (let at = start + 1; at <= end; at += 1) {
    const owner = byUrl.owners[at] ?? 0;
    columns.flags[owner] = (columns.flags[owner] ?? 0) & ~LISTED;
  }
  for (const key of ['slugs', 'prices', 'priceValues'] as const)
    columns[key][first] = columns[key][last] ?? 0n;
  for (const key of ['currencies', 'availabilities', 'shippings'] as const)
    columns[key][first] = columns[key][last] ?? 0;
  columns.flags[first] = ((columns.flags[last] ?? 0) & HAS_VARIANTS) | HAS_URL | LISTED;
  const lastLegacy = legacy.get(last);
  if (lastLegacy === undefined) legacy.delete(first);
  else legacy.set(first, lastLegacy);
  sources.set(first, last);
  return end - start;
}

function directoryOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

/** A catalog product is named by its place in the catalog's list of products. */
export class CatalogProducts {
  constructor(
    /** How many products share no URL with an earlier one. */
    readonly size: number,
    private readonly byUrl: SortedDigests,
    private readonly columns: Columns,
    private readonly values: readonly string[],
    private readonly sources: ReadonlyMap<number, number>,
    private readonly legacyProducts: ReadonlyMap<number, LegacyProduct>,
  ) {}

  /** Places in the catalog, with or without a URL (the size of a `SeenProducts`). */
  get places(): number {
    return this.columns.flags.length;
  }

  /** The product with this URL (the first of those sharing it), or undefined. */
  find(url: string): number | undefined {
    const at = this.byUrl.find(digestOf(url));
    return at === -1 ? undefined : this.byUrl.owners[at];
  }

  /** Every product the documents must list, in catalog order. */
  *listed(): Generator<number> {
    for (const [place, flags] of this.columns.flags.entries()) if ((flags & LISTED) !== 0) yield place;
  }

  /** The place the product's text is read from (the last of those sharing its URL). */
  sourceOf(product: number): number {
    return this.sources.get(product) ?? product;
  }

  slugIs(product: number, slug: unknown): boolean {
    return typeof slug === 'string' && digestOf(slug) === this.columns.slugs[product];
  }

  /** The same price text. */
  priceIs(product: number, price: unknown): boolean {
    return typeof price === 'string' && digestOf(price) === this.columns.prices[product];
  }

  /** The same decimal value ("12.5" and "12.50" agree). */
  samePrice(product: number, amount: string): boolean {
    return digestOf(canonicalPrice(amount)) === this.columns.priceValues[product];
  }

  currency(product: number): string {
    return this.#value(this.columns.currencies[product]);
  }

  availability(product: number): Availability {
    return this.#value(this.columns.availabilities[product]) as Availability;
  }

  shipping(product: number): string | undefined {
    const number = this.columns.shippings[product] ?? 0;
    return number === 0 ? undefined : this.#value(number);
  }

  directory(product: number): string {
    return this.#value(this.columns.directories[product]);
  }

  /** False for a record without `variants` (a catalog from before variants). */
  hasVariants(product: number): boolean {
    return ((this.columns.flags[product] ?? 0) & HAS_VARIANTS) !== 0;
  }

  /** The digests of the ids of the record's variants, in its order (those of the last product sharing its URL). */
  variantIds(product: number): BigUint64Array {
    const source = this.sourceOf(product);
    const { variantIds, variantStarts } = this.columns;
    return variantIds.subarray(variantStarts[source] ?? 0, variantStarts[source + 1] ?? 0);
  }

  /** A product without variants, with the slug and price the feed compares it by. */
  legacy(product: number): LegacyProduct | undefined {
    return this.legacyProducts.get(product);
  }

  #value(number: number | undefined): string {
    return this.values[number ?? 0] ?? '';
  }
}
