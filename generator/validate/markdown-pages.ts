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
import { indexCatalogPages, markPages } from './page-index.js';
import type { BundleFiles, Problem } from './problem.js';

const TWINS: readonly [page: string, twin: string][] = [
  [DOCS_FILE, filePathOf(API_DOCS_MARKDOWN_PATH)],
  ['index.html', filePathOf(LANDING_MARKDOWN_PATH)],
];
const FIELDS = ['id', 'url', 'price', 'currency', 'availability'] as const;

/** What a catalog product's page is checked against: its slug and the fields its front matter states. */
type PageFacts = { slug: string } & Partial<Record<(typeof FIELDS)[number], string>>;

function pageFactsOf(product: unknown): PageFacts {
  const fact: PageFacts = { slug: stringField(product, 'slug') ?? '' };
  for (const field of FIELDS) {
    const value = stringField(product, field);
    if (value !== undefined) fact[field] = value;
  }
  return fact;
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
 * text at 100,000 products), nor every product's facts or page name: the catalog is kept as
 * digests (`PageIndex`), and walked again only when a page is missing or differs, to say
 * so with the real strings. The problems are still listed in the catalog's order.
 */
function checkProductPages(files: BundleFiles, problems: Problem[]): void {
  const index = indexCatalogPages(catalogProductsOf(files) ?? [], (product) => {
    const fact = pageFactsOf(product);
    return { page: productMarkdownFile(fact.slug), fields: FIELDS.map((field) => fact[field]) };
  });
  const shardProblems: Problem[] = [];
  const marking = markPages(
    index,
    productPages(files, (problem) => shardProblems.push(problem)),
    (body) => {
      const reading = readProductMarkdown(body);
      return 'error' in reading ? undefined : FIELDS.map((field) => reading.data[field]);
    },
  );
  problems.push(...shardProblems);
  // A bundle from before product pages existed is not refused for lacking all of them.
  if (marking.pages === 0) return;
  const strays = [...marking.strays];
  if (index.allMatched()) {
    for (const [, page] of strays) problems.push(strayProblem(page));
    return;
  }
  // Only the products whose page is missing or may differ, with their facts, in catalog order.
  const unmatched: { path: string; fact: PageFacts; faults?: string[] }[] = [];
  let at = 0;
  for (const product of catalogProductsOf(files) ?? []) {
    if (!index.isMatched(at)) {
      const fact = pageFactsOf(product);
      unmatched.push({ path: productMarkdownFile(fact.slug), fact });
    }
    at += 1;
  }
  const byPage = new Map<string, (typeof unmatched)[number][]>();
  for (const entry of unmatched) byPage.set(entry.path, [...(byPage.get(entry.path) ?? []), entry]);
  // The pages again (their shards' problems said once already), for those products only: a
  // page stored twice is read as its last copy, as a map of the pages would keep it.
  let ordinal = 0;
  const found = new Set<string>();
  for (const [page, body] of productPages(files, () => undefined)) {
    const entries = byPage.get(page);
    if (entries !== undefined) for (const entry of entries) entry.faults = pageFaults(entry.fact, body);
    // A page whose digest named only differing products, none of its name: no product has it.
    else if (!found.has(page) && index.hitsOnlyUnmatched(page)) {
      found.add(page);
      strays.push([ordinal, page]);
    }
    ordinal += 1;
  }
  for (const { path, fact, faults } of unmatched) {
    for (const message of faults ?? [`${fact.slug} has no Markdown page`])
      problems.push({ path, rule: 'markdown', message });
  }
  strays.sort(([a], [b]) => a - b);
  for (const [, page] of strays) problems.push(strayProblem(page));
}

function strayProblem(page: string): Problem {
  return { path: page, rule: 'markdown', message: 'no catalog product has this page' };
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
