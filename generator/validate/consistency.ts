/**
 * Cross-document consistency: every document that lists products must list the same
 * products as the catalog, with the same prices, availability and URLs. The catalog is
 * the reference; `kb/products.json` and the feed are compared field by field, and the
 * documents that only link products (the knowledge base, llms.txt, llms-full.txt, the
 * sitemap) must link every product (the knowledge base and the sitemap) and no product
 * page the catalog does not have. One pass over each document with maps keyed by URL
 * keeps it linear in products, so a 50,000-product bundle checks quickly.
 */
import { readKnowledgeBase } from '../emit/kb.js';
import { LLMS_PRODUCT_LIMIT } from '../emit/llms-sections.js';
import type { Availability } from '../model.js';
import { isRecord, KB_PRODUCTS_FILE, locateDocuments, readJson, stringField } from './bundle-layout.js';
import { canonicalPrice, checkFeedItems, type ReferenceProduct } from './consistency-feed.js';
import { collectMarkdownLinks, collectSitemapUrls } from './consistency-sources.js';
import type { BundleFiles, Problem } from './problem.js';
import { kbProductRecords } from './schemas.js';
import {
  checkVariantAgreement,
  collectReferenceVariants,
  offerRow,
  type ReferenceVariant,
  type VariantRow,
} from './variant-agreement.js';

/** Past this many differences in one document the rest add nothing a reader can act on. */
const MAX_PROBLEMS_PER_DOCUMENT = 20;

interface Reference {
  byUrl: Map<string, ReferenceProduct>;
  /** Every catalog variant by its id. */
  variants: Map<string, ReferenceVariant>;
  /** Directories product pages live in (e.g. `https://shop.example/products/`). */
  productDirs: Set<string>;
}

class ProblemList {
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

function directoryOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

function buildReference(catalogFile: string, products: unknown[], list: ProblemList): Reference {
  const byUrl = new Map<string, ReferenceProduct>();
  const productDirs = new Set<string>();
  const slugs = new Set<string>();
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
    });
    productDirs.add(directoryOf(url));
  }
  const variants = collectReferenceVariants(products, (id) =>
    list.add(catalogFile, `two variants have the id ${id}`),
  );
  return { byUrl, variants, productDirs };
}

/** A URL that sits where product pages live but is not a page of the site's own documents. */
function looksLikeProductPage(url: string, reference: Reference): boolean {
  if (url.endsWith('/')) return false;
  const last = url.slice(url.lastIndexOf('/') + 1);
  return !last.includes('.') && reference.productDirs.has(directoryOf(url));
}

function checkKbRecords(files: BundleFiles, reference: Reference, list: ProblemList): void {
  const records = kbProductRecords(readJson(files, KB_PRODUCTS_FILE));
  if (records === undefined) return;
  const seen = new Set<string>();
  for (const record of records) {
    const url = stringField(record, 'url');
    if (url === undefined) continue;
    seen.add(url);
    const expected = reference.byUrl.get(url);
    if (expected === undefined) {
      list.add(KB_PRODUCTS_FILE, `${url} is not in the catalog`);
      continue;
    }
    for (const field of ['slug', 'price', 'currency', 'availability'] as const) {
      const actual = isRecord(record) ? record[field] : undefined;
      if (actual !== expected[field]) {
        list.add(
          KB_PRODUCTS_FILE,
          `${expected.slug}: ${field} is ${String(actual)}, the catalog says ${expected[field]}`,
        );
      }
    }
    checkRecordVariants(record, expected, reference, list);
  }
  reportMissing(KB_PRODUCTS_FILE, seen, reference, list);
}

/** The variants a kb/products.json record lists agree with the catalog's, and it lists them all. */
function checkRecordVariants(
  record: unknown,
  expected: ReferenceProduct,
  reference: Reference,
  list: ProblemList,
): void {
  if (!expected.hasVariants) return;
  // The record's own variants, read by the same rules as the catalog's, become its rows.
  const own = collectReferenceVariants([record], () => undefined);
  const rows = [...own.values()].map((variant) => variant.row);
  checkVariantAgreement(rows, reference.variants, { path: KB_PRODUCTS_FILE, add: (p, m) => list.add(p, m) });
  const listed = new Set(rows.map((row) => row.variantId));
  for (const [id, variant] of reference.variants) {
    if (variant.slug === expected.slug && !listed.has(id))
      list.add(KB_PRODUCTS_FILE, `${expected.slug} variant ${id} is in the catalog but missing here`);
  }
}

/** A knowledge-base variant table row in the feeds' terms. */
function kbVariantRow(entry: { id: string; price: string; was: string; availability: string }): VariantRow {
  const [amount = '', currency = ''] = entry.price.split(' ');
  const was = entry.was === '' ? undefined : entry.was.split(' ')[0];
  return { ...offerRow(entry.id, amount, was, currency), availability: entry.availability };
}

function reportMissing(
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

function checkKnowledgeBaseMarkdown(
  files: BundleFiles,
  path: string,
  reference: Reference,
  list: ProblemList,
): void {
  const seen = new Set<string>();
  for (const entry of readKnowledgeBase(files, path)?.products ?? []) {
    const expected = reference.byUrl.get(entry.link);
    seen.add(entry.link);
    if (expected === undefined) {
      list.add(path, `product ${entry.name} (${entry.link}) is not in the catalog`);
      continue;
    }
    const [amount = '', currency = ''] = entry.price.split(' ');
    if (canonicalPrice(amount) !== canonicalPrice(expected.price) || currency !== expected.currency) {
      list.add(
        path,
        `${expected.slug}: price is ${entry.price}, the catalog says ${expected.price} ${expected.currency}`,
      );
    }
    if (entry.availability !== expected.availability) {
      list.add(
        path,
        `${expected.slug}: availability is ${entry.availability}, the catalog says ${expected.availability}`,
      );
    }
    checkVariantAgreement(entry.variants.map(kbVariantRow), reference.variants, {
      path,
      add: (where, message) => list.add(where, message),
    });
  }
  reportMissing(path, seen, reference, list);
}

function checkLinks(
  path: string,
  urls: Iterable<string>,
  reference: Reference,
  list: ProblemList,
  mustListAll: boolean | 'if-any',
): void {
  const seen = new Set<string>();
  for (const url of urls) {
    if (reference.byUrl.has(url)) seen.add(url);
    else if (looksLikeProductPage(url, reference))
      list.add(path, `links ${url}, which is not in the catalog`);
  }
  // llms.txt may leave products out altogether; once it lists some, it must list them all.
  if (mustListAll === true || (mustListAll === 'if-any' && seen.size > 0)) {
    reportMissing(path, seen, reference, list);
  }
}

/**
 * A sitemap may only list URLs on its own host (sitemaps.org, "Sitemap file location"), so
 * it must list exactly the products whose page is on the site; a store elsewhere keeps its own.
 */
function checkSitemapHost(
  sitemap: { path: string; urls: Iterable<string> },
  siteUrl: string | undefined,
  reference: Reference,
  list: ProblemList,
): void {
  const origin = siteUrl === undefined ? undefined : originOf(siteUrl);
  const urls = [...sitemap.urls];
  if (origin === undefined) {
    checkLinks(sitemap.path, urls, reference, list, true);
    return;
  }
  for (const url of urls) {
    if (originOf(url) !== origin)
      list.add(sitemap.path, `lists ${url}, which is not on its own host ${origin}`);
  }
  const onSite = [...reference.byUrl].filter(([url]) => originOf(url) === origin);
  checkLinks(sitemap.path, urls, { ...reference, byUrl: new Map(onSite) }, list, true);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function checkConsistency(files: BundleFiles): Problem[] {
  const { catalogFile } = locateDocuments(files);
  if (catalogFile === undefined) return [];
  const catalog = readJson(files, catalogFile);
  if (!isRecord(catalog) || !Array.isArray(catalog.products)) return [];
  const list = new ProblemList();
  const reference = buildReference(catalogFile, catalog.products, list);
  checkKbRecords(files, reference, list);
  checkFeedItems(files, reference, (path, message) => list.add(path, message));
  for (const path of files.keys()) {
    if (/^kb\/[^/]+-knowledge-base\.md$/.test(path)) {
      checkKnowledgeBaseMarkdown(files, path, reference, list);
    } else if (path === 'llms-full.txt') {
      checkLinks(path, collectMarkdownLinks(files.get(path) ?? ''), reference, list, true);
    } else if (path === 'llms.txt') {
      // Past LLMS_PRODUCT_LIMIT products, llms.txt lists only the first ones.
      const mustListAll = reference.byUrl.size <= LLMS_PRODUCT_LIMIT ? 'if-any' : false;
      checkLinks(path, collectMarkdownLinks(files.get(path) ?? ''), reference, list, mustListAll);
    }
  }
  const sitemap = collectSitemapUrls(files);
  if (sitemap !== undefined) checkSitemapHost(sitemap, locateDocuments(files).siteUrl, reference, list);
  return list.finish();
}
