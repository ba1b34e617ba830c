/**
 * Cross-document consistency: every document that lists products must list the same
 * products as the catalog, with the same prices, availability and URLs. The catalog is
 * the reference; `kb/products.json` and the feed are compared field by field, and the
 * documents that only link products (the knowledge base, llms.txt, llms-full.txt, the
 * sitemap) must link every product (the knowledge base and the sitemap) and no product
 * page the catalog does not have. One pass over each document with maps keyed by URL
 * keeps it linear in products, so a 50,000-product bundle checks quickly.
 */
import { LLMS_PRODUCT_LIMIT } from '../emit/llms-sections.js';
import { keepCatalogOffers } from './agent-feeds/offers-of-bundle.js';
import { locateDocuments } from './bundle-layout.js';
import { checkFeedItems } from './consistency-feed.js';
import { checkKbRecords, checkKnowledgeBaseMarkdown } from './consistency-kb.js';
import {
  buildReference,
  directoryOf,
  ProblemList,
  type Reference,
  reportMissing,
  SeenProducts,
} from './consistency-reference.js';
import { collectMarkdownLinks, markdownLinksOfLines, streamSitemapUrls } from './consistency-sources.js';
import { catalogProductsOf } from './listed-records.js';
import type { BundleFiles, Problem } from './problem.js';
import { documentLines } from './text-lines.js';

/** A URL that sits where product pages live but is not a page of the site's own documents. */
function looksLikeProductPage(url: string, reference: Reference): boolean {
  if (url.endsWith('/')) return false;
  const last = url.slice(url.lastIndexOf('/') + 1);
  return !last.includes('.') && reference.productDirs.has(directoryOf(url));
}

function checkLinks(
  path: string,
  urls: Iterable<string>,
  reference: Reference,
  list: ProblemList,
  mustListAll: boolean | 'if-any',
): void {
  const seen = new SeenProducts(reference);
  for (const url of urls) {
    const product = reference.products.find(url);
    if (product !== undefined) seen.add(product);
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
  if (origin === undefined) {
    checkLinks(sitemap.path, sitemap.urls, reference, list, true);
    return;
  }
  for (const url of sitemap.urls) {
    if (originOf(url) !== origin)
      list.add(sitemap.path, `lists ${url}, which is not on its own host ${origin}`);
  }
  // Walked again (the sitemap is read as it is walked, never kept): only the catalog's pages
  // on the site count as listed; a product page elsewhere is not the sitemap's to list.
  const seen = new SeenProducts(reference);
  for (const url of sitemap.urls) {
    const product = originOf(url) === origin ? reference.products.find(url) : undefined;
    if (product !== undefined) seen.add(product);
    else if (looksLikeProductPage(url, reference))
      list.add(sitemap.path, `links ${url}, which is not in the catalog`);
  }
  // A product's directory is on its page's host.
  reportMissing(sitemap.path, seen, reference, list, (directory) => originOf(directory) === origin);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The reference of the catalog's products, the catalog itself let go once it is built: for
 * a catalog kept on disk the records are made again for each reader, and holding them for
 * every check below kept a whole copy of the catalog in memory for the gate's longest check.
 */
function referenceOf(files: BundleFiles, catalogFile: string, list: ProblemList): Reference | undefined {
  const products = catalogProductsOf(files);
  return products === undefined ? undefined : buildReference(catalogFile, products, list);
}

export function checkConsistency(files: BundleFiles): Problem[] {
  const { catalogFile } = locateDocuments(files);
  if (catalogFile === undefined) return [];
  const list = new ProblemList();
  const reference = referenceOf(files, catalogFile, list);
  if (reference === undefined) return [];
  // The agent feeds' check, next, is held to the same offers: the gate keeps one copy.
  keepCatalogOffers(files, reference.offers);
  checkKbRecords(files, reference, list);
  checkFeedItems(files, reference, (path, message) => list.add(path, message));
  for (const path of files.keys()) {
    if (/^kb\/[^/]+-knowledge-base\.md$/.test(path)) {
      checkKnowledgeBaseMarkdown(files, path, reference, list);
    } else if (path === 'llms-full.txt') {
      // Read a line at a time (117 MiB at 100,000 products), never joined into one text.
      checkLinks(path, markdownLinksOfLines(documentLines(files, path)), reference, list, true);
    } else if (path === 'llms.txt') {
      // Past LLMS_PRODUCT_LIMIT products, llms.txt lists only the first ones.
      const mustListAll = reference.products.size <= LLMS_PRODUCT_LIMIT ? 'if-any' : false;
      checkLinks(path, collectMarkdownLinks(files.get(path) ?? ''), reference, list, mustListAll);
    }
  }
  const sitemap = streamSitemapUrls(files);
  if (sitemap !== undefined) checkSitemapHost(sitemap, locateDocuments(files).siteUrl, reference, list);
  // The few products the messages quote, read from the catalog once more.
  return list.finish(() => catalogProductsOf(files) ?? []);
}
