/**
 * The gate for the Markdown pages: each HTML page of the bundle has its twin (`/api/` →
 * `api/index.md`, model (a)'s `/` → `index.md`), and every catalog product has its page
 * under `kb/products/` (a file, or an entry of the live handler's page shards) whose
 * front matter states the catalog's id, url, price, currency and availability, and no
 * page names a product the catalog lacks.
 */
import { readProductMarkdown } from '../emit/product-markdown.js';
import { productPages } from '../emit/product-page-shards.js';
import {
  API_DOCS_MARKDOWN_PATH,
  filePathOf,
  LANDING_MARKDOWN_PATH,
  productMarkdownFile,
} from '../emit/sitemap-pages.js';
import { DOCS_FILE, stringField } from './bundle-layout.js';
import { catalogProductsOf } from './listed-records.js';
import type { BundleFiles, Problem } from './problem.js';

const TWINS: readonly [page: string, twin: string][] = [
  [DOCS_FILE, filePathOf(API_DOCS_MARKDOWN_PATH)],
  ['index.html', filePathOf(LANDING_MARKDOWN_PATH)],
];
const FIELDS = ['id', 'url', 'price', 'currency', 'availability'] as const;

/** What a catalog product's page is checked against: its slug and the fields its front matter states. */
type PageFacts = { slug: string } & Partial<Record<(typeof FIELDS)[number], string>>;

/**
 * The facts of each catalog product, in the catalog's order, the catalog let go once they
 * are read: the pages are checked for most of a big catalog's gate, and keeping the records
 * for it held a whole copy of the catalog (the build makes the records again for each reader).
 */
function catalogPageFacts(files: BundleFiles): PageFacts[] {
  const facts: PageFacts[] = [];
  for (const product of catalogProductsOf(files) ?? []) {
    const fact: PageFacts = { slug: stringField(product, 'slug') ?? '' };
    for (const field of FIELDS) {
      const value = stringField(product, field);
      if (value !== undefined) fact[field] = value;
    }
    facts.push(fact);
  }
  return facts;
}

/** What is wrong with one page of a catalog product, against that product. */
function pageFaults(product: PageFacts, body: string): string[] {
  const reading = readProductMarkdown(body);
  if ('error' in reading) return [`front matter is not valid YAML: ${reading.error}`];
  const faults: string[] = [];
  for (const field of FIELDS) {
    const value = product[field];
    if (value !== undefined && reading.data[field] !== value) {
      faults.push(`${field} is ${String(reading.data[field])}, the catalog says ${value}`);
    }
  }
  return faults;
}

/**
 * The pages are read one at a time (a shard's text at most) and checked against the catalog
 * product they belong to, so the gate never holds every page at once (half a gigabyte of
 * text at 100,000 products); the problems are still listed in the catalog's order.
 */
function checkProductPages(files: BundleFiles, problems: Problem[]): void {
  const products = catalogPageFacts(files);
  // The catalog's products by their page file; two products of one slug share a page.
  const expected = new Map<string, number[]>();
  for (const [index, product] of products.entries()) {
    const file = productMarkdownFile(product.slug);
    const indexes = expected.get(file);
    if (indexes === undefined) expected.set(file, [index]);
    else indexes.push(index);
  }
  const shardProblems: Problem[] = [];
  const faultsOf = new Map<number, string[]>();
  const strays: string[] = [];
  const seen = new Set<string>();
  // Files, or entries of the live handler's page shards: the same pages either way. A page
  // stored twice is read as its last copy, as a map of the pages would keep it.
  for (const [page, body] of productPages(files, (problem) => shardProblems.push(problem))) {
    if (!seen.has(page) && !expected.has(page)) strays.push(page);
    seen.add(page);
    for (const index of expected.get(page) ?? []) {
      const product = products[index];
      if (product !== undefined) faultsOf.set(index, pageFaults(product, body));
    }
  }
  problems.push(...shardProblems);
  // A bundle from before product pages existed is not refused for lacking all of them.
  if (seen.size === 0) return;
  for (const [index, { slug }] of products.entries()) {
    const path = productMarkdownFile(slug);
    const faults = faultsOf.get(index) ?? [`${slug} has no Markdown page`];
    for (const message of faults) problems.push({ path, rule: 'markdown', message });
  }
  for (const page of strays)
    problems.push({ path: page, rule: 'markdown', message: 'no catalog product has this page' });
}

export function checkMarkdownPages(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  for (const [page, twin] of TWINS) {
    if (files.has(page) && !files.has(twin)) {
      problems.push({ path: twin, rule: 'missing', message: `${page} has no Markdown twin` });
    }
  }
  checkProductPages(files, problems);
  return problems;
}
