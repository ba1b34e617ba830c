/**
 * The reference every consistency check compares documents with: the catalog's products
 * by URL and its variants by id, read once from the published catalog (one pass over its
 * products for both), and the list that collects the differences (capped per document, so
 * a broken 50,000-product bundle gives a readable report). The reference is the gate's
 * largest state: the fields that repeat across products are interned, a product's variant
 * ids are the offers' own strings, and which products a document listed is a bit each.
 */
import type { Availability } from '../model.js';
import { type CatalogOffers, CatalogOffersBuilder } from './agent-feeds/catalog-offers.js';
import { isRecord, stringField } from './bundle-layout.js';
import { InternedStrings } from './interned-strings.js';
import type { Problem } from './problem.js';

/** Past this many differences in one document the rest add nothing a reader can act on. */
const MAX_PROBLEMS_PER_DOCUMENT = 20;

/** What the documents are compared against: one catalog product. */
export interface ReferenceProduct {
  /** Its place in the catalog, which `SeenProducts` marks. */
  index: number;
  slug: string;
  price: string;
  currency: string;
  availability: Availability;
  shipping?: string;
  /** False for a record without `variants` (a catalog from before variants). */
  hasVariants: boolean;
  /** The ids of the record's variants, in its order. */
  variantIds: readonly string[];
}

export interface Reference {
  byUrl: ReadonlyMap<string, ReferenceProduct>;
  /** Every catalog variant's offer by its id (`CatalogOffersBuilder`, as the agent feeds read them); undefined for a catalog without variants. */
  offers: CatalogOffers | undefined;
  /** Directories product pages live in (e.g. `https://shop.example/products/`). */
  productDirs: Set<string>;
}

export class ProblemList {
  readonly problems: Problem[] = [];
  private readonly counts = new Map<string, number>();

  add(path: string, message: string): void {
    const count = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, count);
    if (count <= MAX_PROBLEMS_PER_DOCUMENT) this.problems.push({ path, rule: 'consistency', message });
  }

  finish(): Problem[] {
    for (const [path, count] of this.counts) {
      if (count > MAX_PROBLEMS_PER_DOCUMENT) {
        this.problems.push({
          path,
          rule: 'consistency',
          message: `${count - MAX_PROBLEMS_PER_DOCUMENT} more differences not listed`,
        });
      }
    }
    return this.problems;
  }
}

/**
 * The catalog products a document listed, a bit per product: a set of the URLs read from a
 * document would keep each one, and each a slice of the piece of text it was read from.
 */
export class SeenProducts {
  readonly #bits: Uint8Array;
  #count = 0;

  constructor(reference: Reference) {
    this.#bits = new Uint8Array(reference.byUrl.size);
  }

  get size(): number {
    return this.#count;
  }

  add(product: ReferenceProduct): void {
    if (this.#bits[product.index] === 1) return;
    this.#bits[product.index] = 1;
    this.#count += 1;
  }

  has(product: ReferenceProduct): boolean {
    return this.#bits[product.index] === 1;
  }
}

export function directoryOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

/** The catalog's duplicate urls, slugs and variant ids, reported as the reference is read. */
class Duplicates {
  readonly #slugs = new Set<string>();
  readonly #variantIds = new Set<string>();

  constructor(
    private readonly catalogFile: string,
    private readonly list: ProblemList,
  ) {}

  check(slug: string, variantIds: readonly string[]): void {
    if (this.#slugs.has(slug)) this.list.add(this.catalogFile, `two products have the slug ${slug}`);
    this.#slugs.add(slug);
    for (const id of variantIds) {
      if (this.#variantIds.has(id)) this.list.add(this.catalogFile, `two variants have the id ${id}`);
      this.#variantIds.add(id);
    }
  }
}

export function buildReference(
  catalogFile: string,
  products: Iterable<unknown>,
  list: ProblemList,
): Reference {
  const byUrl = new Map<string, ReferenceProduct>();
  const productDirs = new Set<string>();
  const strings = new InternedStrings();
  const offers = new CatalogOffersBuilder(strings);
  const duplicates = new Duplicates(catalogFile, list);
  for (const record of products) {
    offers.add(record);
    const url = stringField(record, 'url');
    const slug = stringField(record, 'slug') ?? '';
    if (url === undefined) continue; // the schema check reports malformed records
    if (byUrl.has(url)) list.add(catalogFile, `two products have the url ${url}`);
    const variantIds = readVariantIds(record);
    duplicates.check(slug, variantIds);
    const shipping = stringField(record, 'shipping');
    byUrl.set(url, {
      index: byUrl.size,
      slug,
      price: stringField(record, 'price') ?? '',
      currency: strings.of(stringField(record, 'currency') ?? ''),
      availability: strings.of(stringField(record, 'availability') ?? 'in_stock') as Availability,
      ...(shipping !== undefined ? { shipping: strings.of(shipping) } : {}),
      hasVariants: isRecord(record) && Array.isArray(record.variants),
      variantIds,
    });
    productDirs.add(directoryOf(url));
  }
  return { byUrl, offers: offers.finish(), productDirs };
}

const NO_IDS: readonly string[] = [];

function readVariantIds(record: unknown): readonly string[] {
  if (!isRecord(record) || !Array.isArray(record.variants)) return NO_IDS;
  const ids = record.variants.flatMap((variant) => stringField(variant, 'id') ?? []);
  return ids.length === 0 ? NO_IDS : ids;
}

/** Reports every catalog product the document did not list (of those `among` keeps, when given). */
export function reportMissing(
  path: string,
  seen: SeenProducts,
  reference: Reference,
  list: ProblemList,
  among?: (url: string) => boolean,
): void {
  if (among === undefined && seen.size === reference.byUrl.size) return;
  for (const [url, product] of reference.byUrl) {
    if (!seen.has(product) && (among === undefined || among(url)))
      list.add(path, `${product.slug} (${url}) is in the catalog but missing here`);
  }
}
