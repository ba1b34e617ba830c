/**
 * Readers that pull the product facts out of the documents the consistency check
 * compares: the feed's items (through the feed module's own parser), the URLs a
 * sitemap lists (following a sitemap index into the bundle's child sitemaps) and the
 * absolute URLs a Markdown or plain-text document links. Malformed documents yield
 * nothing here; their own checkers report them.
 */
import { XMLParser } from 'fast-xml-parser';
import { FEED_FILE, parseFeed } from '../emit/feed.js';
import { isRecord } from './bundle-layout.js';
import type { BundleFiles } from './problem.js';

export const SITEMAP_FILE = 'sitemap.xml';

export interface FeedFacts {
  path: string;
  items: { link: string; price: string; availability: string }[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export function readFeedItems(files: BundleFiles): FeedFacts | undefined {
  const body = files.get(FEED_FILE);
  if (body === undefined) return undefined;
  try {
    const { items } = parseFeed(body);
    return {
      path: FEED_FILE,
      items: items.map((item) => ({
        link: text(item['g:link'] ?? item.link),
        price: text(item['g:price']),
        availability: text(item['g:availability']),
      })),
    };
  } catch {
    return undefined;
  }
}

// Absolute http(s) URLs, stopping at whitespace and at what closes a Markdown link or tag.
const URL_PATTERN = /https?:\/\/[^\s<>()"'`\]]+/g;

/** Every absolute URL in a Markdown or text document, trailing sentence punctuation removed. */
export function collectMarkdownLinks(body: string): string[] {
  return Array.from(body.matchAll(URL_PATTERN), (match) => match[0].replace(/[.,;:!?*_]+$/, ''));
}

const parser = new XMLParser({
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

function locs(entries: unknown): string[] {
  return Array.isArray(entries) ? entries.map((entry) => (isRecord(entry) ? text(entry.loc) : '')) : [];
}

function parseSitemap(body: string): { urls: string[]; children: string[] } | undefined {
  try {
    const tree: unknown = parser.parse(body);
    if (!isRecord(tree)) return undefined;
    const urlset = tree.urlset;
    const index = tree.sitemapindex;
    return {
      urls: isRecord(urlset) ? locs(urlset.url) : [],
      children: isRecord(index) ? locs(index.sitemap) : [],
    };
  } catch {
    return undefined;
  }
}

/** The page URLs of `sitemap.xml`, with the child sitemaps of an index read from the bundle. */
export function collectSitemapUrls(files: BundleFiles): { path: string; urls: string[] } | undefined {
  const body = files.get(SITEMAP_FILE);
  if (body === undefined) return undefined;
  const root = parseSitemap(body);
  if (root === undefined) return undefined;
  const urls = [...root.urls];
  for (const child of root.children) {
    if (!URL.canParse(child)) continue;
    const childBody = files.get(new URL(child).pathname.slice(1));
    const parsed = childBody === undefined ? undefined : parseSitemap(childBody);
    if (parsed) urls.push(...parsed.urls);
  }
  return { path: SITEMAP_FILE, urls };
}
