/**
 * The gate for the Markdown pages: each HTML page of the bundle has its twin (`/api/` →
 * `api/index.md`, model (a)'s `/` → `index.md`), and every catalog product has its page
 * under `kb/products/` (a file, or an entry of the live handler's page shards) whose
 * front matter states the catalog's id, url, price, currency and availability, and no
 * page names a product the catalog lacks.
 */
import { readProductMarkdown } from '../emit/product-markdown.js';
import { readProductPages } from '../emit/product-page-shards.js';
import {
  API_DOCS_MARKDOWN_PATH,
  filePathOf,
  LANDING_MARKDOWN_PATH,
  productMarkdownFile,
} from '../emit/sitemap-pages.js';
import { DOCS_FILE, isRecord, locateDocuments, readJson, stringField } from './bundle-layout.js';
import type { BundleFiles, Problem } from './problem.js';

const TWINS: readonly [page: string, twin: string][] = [
  [DOCS_FILE, filePathOf(API_DOCS_MARKDOWN_PATH)],
  ['index.html', filePathOf(LANDING_MARKDOWN_PATH)],
];
const FIELDS = ['id', 'url', 'price', 'currency', 'availability'] as const;

function checkProductPages(files: BundleFiles, problems: Problem[]): void {
  const { catalogFile } = locateDocuments(files);
  const catalog = catalogFile === undefined ? undefined : readJson(files, catalogFile);
  const products = isRecord(catalog) && Array.isArray(catalog.products) ? catalog.products : [];
  // Files, or entries of the live handler's page shards: the same pages either way.
  const stored = readProductPages(files);
  problems.push(...stored.problems);
  const pages = [...stored.pages.keys()];
  // A bundle from before product pages existed is not refused for lacking all of them.
  if (pages.length === 0) return;
  const expected = new Set<string>();
  for (const product of products) {
    const slug = stringField(product, 'slug') ?? '';
    const file = productMarkdownFile(slug);
    expected.add(file);
    const body = stored.pages.get(file);
    const report = (message: string) => problems.push({ path: file, rule: 'markdown', message });
    if (body === undefined) {
      report(`${slug} has no Markdown page`);
      continue;
    }
    const reading = readProductMarkdown(body);
    if ('error' in reading) {
      report(`front matter is not valid YAML: ${reading.error}`);
      continue;
    }
    for (const field of FIELDS) {
      const value = stringField(product, field);
      if (value !== undefined && reading.data[field] !== value) {
        report(`${field} is ${String(reading.data[field])}, the catalog says ${value}`);
      }
    }
  }
  for (const page of pages) {
    if (!expected.has(page))
      problems.push({ path: page, rule: 'markdown', message: 'no catalog product has this page' });
  }
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
