/**
 * The URL paths of the documents this family publishes on `{site_url}` (CONTRACT.md,
 * "Public URLs"), in one place, so the sitemap, llms.txt, robots.txt and the knowledge
 * base link to exactly the paths the emitters write.
 */
import type { ResolvedConfig } from '../config.js';

export const API_DOCS_PATH = '/api/';
export const OPENAPI_PATH = '/api/openapi.json';
export const KB_PRODUCTS_PATH = '/kb/products.json';
export const FEED_PATH = '/feed.xml';
export const SITEMAP_PATH = '/sitemap.xml';
export const LLMS_PATH = '/llms.txt';
export const LLMS_FULL_PATH = '/llms-full.txt';
export const ROBOTS_PATH = '/robots.txt';
export const TDMREP_PATH = '/.well-known/tdmrep.json';
/** The Markdown twins of the two HTML pages (model (a)'s `/` and `/api/`). */
export const LANDING_MARKDOWN_PATH = '/index.md';
export const API_DOCS_MARKDOWN_PATH = '/api/index.md';
/**
 * The folder of the product Markdown pages. Under `/kb/` rather than `/products/`: in model
 * (b) the bundle shares its origin with the store, whose own pages own `/products/*`, so only
 * a path of the bundle's own works in both deployment models.
 */
export const PRODUCT_MARKDOWN_DIR = '/kb/products/';
export const AUTH_MD_PATH = '/auth.md';

/** `/kb/products/<slug>.md`, percent-encoded for a slug in a non-Latin script. */
export function productMarkdownPath(slug: string): string {
  return `${PRODUCT_MARKDOWN_DIR}${encodeURIComponent(slug)}.md`;
}

/** The bundle file of a product's Markdown page (the decoded slug: hosts map URLs to files decoded). */
export function productMarkdownFile(slug: string): string {
  return `${PRODUCT_MARKDOWN_DIR.slice(1)}${slug}.md`;
}

/** `/kb/<merchant-slug>-knowledge-base.md`. */
export function knowledgeBasePath(config: ResolvedConfig): string {
  return `/kb/${config.merchant.slug}-knowledge-base.md`;
}

/** Bundle-relative file path (Artifact.path) of a URL path that is served as a plain file. */
export function filePathOf(urlPath: string): string {
  return urlPath.endsWith('/') ? `${urlPath.slice(1)}index.html` : urlPath.slice(1);
}

/** Absolute URL of a path on the site. */
export function siteUrl(config: ResolvedConfig, path: string): string {
  return `${config.site_url}${path}`;
}
