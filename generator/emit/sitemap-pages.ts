/**
 * The URL paths of the documents this family publishes on `{site_url}` (CONTRACT.md,
 * "Public URLs"), in one place, so the sitemap, llms.txt, robots.txt and the knowledge
 * base link to exactly the paths the emitters write, and the rule that names a product's
 * page (`productPageName`), which every link to a page and its file or packed entry follow.
 */
import { createHash } from 'node:crypto';
import { isUsableSlug } from '../../record/slug.js';
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

/**
 * The longest file name the file systems a bundle is written to or deployed from take:
 * 255 bytes on ext4, XFS and Btrfs (`NAME_MAX`); NTFS counts 255 UTF-16 units, which a
 * name's UTF-8 bytes never undercount.
 */
export const MAX_FILE_NAME_BYTES = 255;
const PAGE_EXTENSION = '.md';
/** 64 bits of SHA-256: two long slugs of one catalog never share a page name. */
const NAME_HASH_HEX = 16;
/** A slug never holds two hyphens running, so a shortened name is never another product's slug. */
const NAME_HASH_JOIN = '--';
const PREFIX_BYTES = MAX_FILE_NAME_BYTES - PAGE_EXTENSION.length - NAME_HASH_JOIN.length - NAME_HASH_HEX;
const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest run of the slug's first whole characters (a letter with its marks) within `bytes`, without a trailing separator. */
function leadingGraphemes(slug: string, bytes: number): string {
  let prefix = '';
  let used = 0;
  for (const { segment } of graphemes.segment(slug)) {
    used += utf8Bytes(segment);
    if (used > bytes) break;
    prefix += segment;
  }
  return prefix.replace(/[-_]+$/u, '');
}

/**
 * The name of a product's page, its file name without `.md`: the slug itself whenever
 * `<slug>.md` fits in a file name, so every such page keeps its URL. A slug may be 255
 * characters (Shopify's handle limit), and a 255-letter Arabic handle is 510 bytes, which no
 * file system takes: such a page is named by the slug's first letters (within the limit,
 * cut between whole characters so no letter loses its marks), two hyphens and 16 hex
 * digits of the SHA-256 of the whole slug, so the name is stable from build to build and
 * two slugs that begin alike still get two pages. The name is the same whether the pages
 * are files or packed for the live handler, so turning the live surface on or off moves
 * no URL. Every document that links a page, and the packed pages' keys, come from here.
 */
export function productPageName(slug: string): string {
  if (utf8Bytes(`${slug}${PAGE_EXTENSION}`) <= MAX_FILE_NAME_BYTES) return slug;
  const hash = createHash('sha256').update(slug, 'utf8').digest('hex').slice(0, NAME_HASH_HEX);
  return `${leadingGraphemes(slug, PREFIX_BYTES)}${NAME_HASH_JOIN}${hash}`;
}

const SHORTENED_NAME = new RegExp(`^(.*)${NAME_HASH_JOIN}[0-9a-f]{${NAME_HASH_HEX}}$`, 'u');

/** True when `name` has the form `productPageName` gives a slug too long for a file name. */
export function isShortenedPageName(name: string): boolean {
  const prefix = SHORTENED_NAME.exec(name)?.[1];
  return prefix !== undefined && utf8Bytes(prefix) <= PREFIX_BYTES && (prefix === '' || isUsableSlug(prefix));
}

/** `/kb/products/<name>.md` (`productPageName`), percent-encoded for a slug in a non-Latin script. */
export function productMarkdownPath(slug: string): string {
  return `${PRODUCT_MARKDOWN_DIR}${encodeURIComponent(productPageName(slug))}${PAGE_EXTENSION}`;
}

/** The bundle file of the page named `name` (decoded: hosts map URLs to files decoded). */
export function productPageFile(name: string): string {
  return `${PRODUCT_MARKDOWN_DIR.slice(1)}${name}${PAGE_EXTENSION}`;
}

/** The bundle file of a product's Markdown page. */
export function productMarkdownFile(slug: string): string {
  return productPageFile(productPageName(slug));
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
