/**
 * The reference every consistency check compares documents with: the catalog's products
 * by URL (`CatalogProducts`, digests in typed arrays) and its variants by id, read once
 * from the published catalog (one pass over its products for both), and the list that
 * collects the differences (capped per document, so a broken 50,000-product bundle gives a
 * readable report). A message that quotes the catalog's text waits until the end, when the
 * few products it names are read again: the reference keeps no product's text.
 */
import type { CatalogOffers } from './agent-feeds/catalog-offers.js';
import { CatalogOffersBuilder } from './agent-feeds/catalog-offers-builder.js';
import { stringField } from './bundle-layout.js';
import { type CatalogProducts, CatalogProductsBuilder, readVariantIds } from './catalog-products.js';
import { digestOf } from './digests.js';
import { type Message, wordMessages } from './pending-messages.js';
import type { Problem } from './problem.js';

/** Past this many differences in one document the rest add nothing a reader can act on. */
const MAX_PROBLEMS_PER_DOCUMENT = 20;

export interface Reference {
  /** The catalog's products by URL, as digests. */
  products: CatalogProducts;
  /** Every catalog variant's offer, by the variant's id (`CatalogOffers`); undefined for a catalog without variants. */
  offers: CatalogOffers | undefined;
  /** Directories product pages live in (e.g. `https://shop.example/products/`). */
  productDirs: Set<string>;
}

interface Kept {
  path: string;
  message: Message;
}

/**
 * The differences found, in order, capped per document. A message that quotes the catalog
 * (its slug, price or URL) is worded in `finish`, from the few products read again.
 */
export class ProblemList {
  readonly #kept: Kept[] = [];
  private readonly counts = new Map<string, number>();

  add(path: string, message: Message): void {
    const count = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, count);
    if (count <= MAX_PROBLEMS_PER_DOCUMENT) this.#kept.push({ path, message });
  }

  /** The problems, the pending ones worded from the catalog's `products` read again. */
  finish(products: () => Iterable<unknown>): Problem[] {
    const messages = wordMessages(
      this.#kept.map(({ message }) => message),
      products,
    );
    const problems: Problem[] = this.#kept.map(({ path }, at) => ({
      path,
      rule: 'consistency',
      message: messages[at] ?? '',
    }));
    for (const [path, count] of this.counts) {
      if (count > MAX_PROBLEMS_PER_DOCUMENT) {
        problems.push({
          path,
          rule: 'consistency',
          message: `${count - MAX_PROBLEMS_PER_DOCUMENT} more differences not listed`,
        });
      }
    }
    return problems;
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
    this.#bits = new Uint8Array(reference.products.places);
  }

  get size(): number {
    return this.#count;
  }

  add(product: number): void {
    if (this.#bits[product] === 1) return;
    this.#bits[product] = 1;
    this.#count += 1;
  }

  has(product: number): boolean {
    return this.#bits[product] === 1;
  }
}

export function directoryOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

export function buildReference(
  catalogFile: string,
  products: Iterable<unknown>,
  list: ProblemList,
): Reference {
  const productDirs = new Set<string>();
  const offers = new CatalogOffersBuilder();
  const builder = new CatalogProductsBuilder();
  for (const record of products) {
    offers.add(record);
    const url = stringField(record, 'url');
    builder.add(record, url);
    if (url !== undefined) productDirs.add(directoryOf(url));
  }
  const reference = { products: builder.finish(), offers: offers.finish(), productDirs };
  const repeats = builder.repeats();
  if (repeats !== undefined) reportDuplicates(catalogFile, products, repeats, list);
  return reference;
}

/**
 * The catalog's duplicate urls, slugs and variant ids, in the order the catalog gives them:
 * only the strings whose digest repeats are kept, and only while the catalog is read again.
 */
function reportDuplicates(
  catalogFile: string,
  products: Iterable<unknown>,
  repeats: NonNullable<ReturnType<CatalogProductsBuilder['repeats']>>,
  list: ProblemList,
): void {
  const urls = new Set<string>();
  const slugs = new Set<string>();
  const variantIds = new Set<string>();
  for (const record of products) {
    const url = stringField(record, 'url');
    if (url === undefined) continue; // the schema check reports malformed records
    const slug = stringField(record, 'slug') ?? '';
    if (repeats.urls.has(digestOf(url))) {
      if (urls.has(url)) list.add(catalogFile, `two products have the url ${url}`);
      urls.add(url);
    }
    if (repeats.slugs.has(digestOf(slug))) {
      if (slugs.has(slug)) list.add(catalogFile, `two products have the slug ${slug}`);
      slugs.add(slug);
    }
    for (const id of readVariantIds(record)) {
      if (!repeats.variantIds.has(digestOf(id))) continue;
      if (variantIds.has(id)) list.add(catalogFile, `two variants have the id ${id}`);
      variantIds.add(id);
    }
  }
}

/** Reports every catalog product the document did not list (of those whose directory `among` keeps, when given). */
export function reportMissing(
  path: string,
  seen: SeenProducts,
  reference: Reference,
  list: ProblemList,
  among?: (directory: string) => boolean,
): void {
  const { products } = reference;
  if (among === undefined && seen.size === products.size) return;
  for (const product of products.listed()) {
    if (!seen.has(product) && (among === undefined || among(products.directory(product))))
      list.add(path, {
        place: products.sourceOf(product),
        say: ({ slug, url }) => `${slug} (${url}) is in the catalog but missing here`,
      });
  }
}
