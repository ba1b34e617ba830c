/**
 * The reference every consistency check compares documents with: the catalog's products
 * by URL and its variants by id, read once from the published catalog, and the list that
 * collects the differences (capped per document, so a broken 50,000-product bundle gives a
 * readable report).
 */
import type { Availability } from '../model.js';
import { type CatalogOffers, readCatalogOffers } from './agent-feeds/catalog-offers.js';
import { isRecord, stringField } from './bundle-layout.js';
import type { ReferenceProduct } from './consistency-feed.js';
import type { BundleFiles, Problem } from './problem.js';

/** Past this many differences in one document the rest add nothing a reader can act on. */
const MAX_PROBLEMS_PER_DOCUMENT = 20;

export interface Reference {
  byUrl: Map<string, ReferenceProduct>;
  /** Every catalog variant's offer by its id (`readCatalogOffers`, shared with the agent feeds); undefined for a catalog without variants. */
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

export function directoryOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

export function buildReference(
  files: BundleFiles,
  catalogFile: string,
  products: unknown[],
  list: ProblemList,
): Reference {
  const byUrl = new Map<string, ReferenceProduct>();
  const productDirs = new Set<string>();
  const slugs = new Set<string>();
  const variantIds = new Set<string>();
  for (const record of products) {
    const url = stringField(record, 'url');
    const slug = stringField(record, 'slug') ?? '';
    if (url === undefined) continue; // the schema check reports malformed records
    if (byUrl.has(url)) list.add(catalogFile, `two products have the url ${url}`);
    if (slugs.has(slug)) list.add(catalogFile, `two products have the slug ${slug}`);
    slugs.add(slug);
    byUrl.set(url, {
      slug,
      price: stringField(record, 'price') ?? '',
      currency: stringField(record, 'currency') ?? '',
      availability: (stringField(record, 'availability') ?? 'in_stock') as Availability,
      ...(stringField(record, 'shipping') !== undefined ? { shipping: stringField(record, 'shipping') } : {}),
      hasVariants: isRecord(record) && Array.isArray(record.variants),
      variantIds: readVariantIds(record),
    });
    productDirs.add(directoryOf(url));
    for (const id of readVariantIds(record)) {
      if (variantIds.has(id)) list.add(catalogFile, `two variants have the id ${id}`);
      variantIds.add(id);
    }
  }
  return { byUrl, offers: readCatalogOffers(files), productDirs };
}

function readVariantIds(record: unknown): string[] {
  return isRecord(record) && Array.isArray(record.variants)
    ? record.variants.flatMap((variant) => stringField(variant, 'id') ?? [])
    : [];
}

/** Reports every catalog product the document did not list. */
export function reportMissing(
  path: string,
  seen: ReadonlySet<string>,
  reference: Reference,
  list: ProblemList,
): void {
  if (seen.size === reference.byUrl.size) return;
  for (const [url, product] of reference.byUrl) {
    if (!seen.has(url)) list.add(path, `${product.slug} (${url}) is in the catalog but missing here`);
  }
}
