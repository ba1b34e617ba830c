/**
 * Readers that pull the product facts out of the documents the consistency check
 * compares: the feed's items, the URLs a sitemap lists (following a sitemap index into
 * the bundle's child sitemaps) and the absolute URLs a Markdown or plain-text document
 * links. Well-formedness is not judged here: the feed and sitemap checkers parse those
 * files fully with fast-xml-parser and report any fault. This module only needs three
 * elements per item and one per URL, and a linear scan of the text finds them about
 * twenty times faster than building the whole tree, which matters at 50,000 products
 * (a 25 MB feed).
 */
import { FEED_FILE } from '../emit/feed.js';
import type { BundleFiles } from './problem.js';

export const SITEMAP_FILE = 'sitemap.xml';

export interface FeedFacts {
  path: string;
  items: { link: string; price: string; availability: string }[];
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character data as text: CDATA unwrapped, the predefined and numeric references decoded. */
function decodeXmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(raw);
  if (cdata) return cdata[1] ?? '';
  return raw
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name] ?? whole;
    })
    .trim();
}

function elementText(block: string, names: readonly string[]): string {
  for (const name of names) {
    const start = block.indexOf(`<${name}>`);
    if (start < 0) continue;
    const end = block.indexOf(`</${name}>`, start);
    if (end > start) return decodeXmlText(block.slice(start + name.length + 2, end));
  }
  return '';
}

/** The text of every `<tag>…</tag>` block, in order. */
function* blocks(body: string, tag: string): Generator<string> {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let from = 0;
  for (;;) {
    const start = body.indexOf(open, from);
    if (start < 0) return;
    const end = body.indexOf(close, start);
    if (end < 0) return;
    yield body.slice(start + open.length, end);
    from = end + close.length;
  }
}

export function readFeedItems(files: BundleFiles): FeedFacts | undefined {
  const body = files.get(FEED_FILE);
  if (body === undefined) return undefined;
  const items: FeedFacts['items'] = [];
  for (const item of blocks(body, 'item')) {
    items.push({
      link: elementText(item, ['g:link', 'link']),
      price: elementText(item, ['g:price']),
      availability: elementText(item, ['g:availability']),
    });
  }
  return { path: FEED_FILE, items };
}

// Absolute http(s) URLs, stopping at whitespace and at what closes a Markdown link or tag.
const URL_PATTERN = /https?:\/\/[^\s<>()"'`\]]+/g;

/** Every absolute URL in a Markdown or text document, trailing sentence punctuation removed. */
export function collectMarkdownLinks(body: string): string[] {
  return Array.from(body.matchAll(URL_PATTERN), (match) => match[0].replace(/[.,;:!?*_]+$/, ''));
}

function locsOf(body: string, tag: 'url' | 'sitemap'): string[] {
  return Array.from(blocks(body, tag), (block) => elementText(block, ['loc']));
}

/** The page URLs of `sitemap.xml`, with the child sitemaps of an index read from the bundle. */
export function collectSitemapUrls(files: BundleFiles): { path: string; urls: string[] } | undefined {
  const body = files.get(SITEMAP_FILE);
  if (body === undefined) return undefined;
  const urls = locsOf(body, 'url');
  for (const child of locsOf(body, 'sitemap')) {
    if (!URL.canParse(child)) continue;
    const childBody = files.get(new URL(child).pathname.slice(1));
    if (childBody !== undefined) urls.push(...locsOf(childBody, 'url'));
  }
  return { path: SITEMAP_FILE, urls };
}
