/**
 * Readers that pull the product facts out of the documents the consistency check
 * compares: the feed's items, the URLs a sitemap lists (following a sitemap index into
 * the bundle's child sitemaps) and the absolute URLs a Markdown or plain-text document
 * links. Well-formedness is not judged here: the feed and sitemap checkers parse those
 * files fully with fast-xml-parser and report any fault. This module only needs three
 * elements per item and one per URL, and a linear scan of the text finds them about
 * twenty times faster than building the whole tree, which matters at 50,000 products
 * (a 25 MB feed). For the documents this build serialised, the facts come from the tree
 * they were serialised from and nothing is scanned (`parse-once.ts`).
 */
import { FEED_FILE, feedTreeItems } from '../emit/feed.js';
import { readFeedShipping } from '../shipping/feed-shipping.js';
import { isRecord } from './bundle-layout.js';
import { type DocumentReader, readOnce } from './parse-once.js';
import type { BundleFiles } from './problem.js';

export const SITEMAP_FILE = 'sitemap.xml';

export interface FeedFacts {
  path: string;
  items: {
    /** `g:id`: the variant's id. */
    id: string;
    link: string;
    price: string;
    /** `g:sale_price`, '' when the item has none. */
    salePrice: string;
    availability: string;
    /** The shipping terms the item states (see `readFeedShipping`). */
    shipping: ReturnType<typeof readFeedShipping>;
  }[];
}

const SHIPPING_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'g:shipping': [
    'g:country',
    'g:price',
    'g:min_handling_time',
    'g:max_handling_time',
    'g:min_transit_time',
    'g:max_transit_time',
  ],
  'g:free_shipping_threshold': ['g:country', 'g:price_threshold'],
};

/** An item's shipping elements as the tree shape `readFeedShipping` reads, scanned from its text. */
function scanShipping(item: string): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, fields] of Object.entries(SHIPPING_FIELDS)) {
    record[name] = Array.from(blocks(item, name), (block) => {
      const entry: Record<string, string> = {};
      for (const sub of fields) if (block.includes(`<${sub}>`)) entry[sub] = elementText(block, [sub]);
      return entry;
    });
  }
  return record;
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

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function field(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/**
 * The feed's items as the consistency check needs them: scanned from the text, or, for
 * the feed this build serialised, taken from the tree XMLBuilder wrote it from (whose
 * text values are what decoding the body would give).
 */
const FEED_FACTS_READER: DocumentReader<FeedFacts['items']> = {
  name: 'feed-facts',
  parse: (body) =>
    Array.from(blocks(body, 'item'), (item) => ({
      id: elementText(item, ['g:id']),
      link: elementText(item, ['g:link', 'link']),
      price: elementText(item, ['g:price']),
      salePrice: elementText(item, ['g:sale_price']),
      availability: elementText(item, ['g:availability']),
      shipping: readFeedShipping(scanShipping(item)),
    })),
  fromSerialised: (tree) =>
    Array.from(feedTreeItems(field(field(field(tree, 'rss'), 'channel'), 'item')), (item) => ({
      id: text(field(item, 'g:id')),
      link: text(field(item, 'g:link') ?? field(item, 'link')),
      price: text(field(item, 'g:price')),
      salePrice: text(field(item, 'g:sale_price')),
      availability: text(field(item, 'g:availability')),
      shipping: isRecord(item) ? readFeedShipping(item) : undefined,
    })),
};

export function readFeedItems(files: BundleFiles): FeedFacts | undefined {
  const items = readOnce(files, FEED_FILE, FEED_FACTS_READER);
  return items === undefined ? undefined : { path: FEED_FILE, items };
}

// Absolute http(s) URLs, stopping at whitespace and at what closes a Markdown link or tag.
const URL_PATTERN = /https?:\/\/[^\s<>()"'`\]]+/g;

/** Every absolute URL in a Markdown or text document, trailing sentence punctuation removed. */
export function collectMarkdownLinks(body: string): string[] {
  return Array.from(body.matchAll(URL_PATTERN), (match) => match[0].replace(/[.,;:!?*_]+$/, ''));
}

/**
 * The links `collectMarkdownLinks` finds in the text these lines make, in order, a line at
 * a time: a URL ends at white space, so none runs across a line break.
 */
export function* markdownLinksOfLines(
  lines: Iterable<readonly [line: string, number: number]>,
): Generator<string> {
  for (const [line] of lines) yield* collectMarkdownLinks(line);
}

interface SitemapLocs {
  urls: string[];
  children: string[];
}

/** The `<loc>` of every URL and of every child sitemap, from the text or the serialised tree. */
const SITEMAP_LOCS_READER: DocumentReader<SitemapLocs> = {
  name: 'sitemap-locs',
  parse: (body) => ({
    urls: Array.from(blocks(body, 'url'), (block) => elementText(block, ['loc'])),
    children: Array.from(blocks(body, 'sitemap'), (block) => elementText(block, ['loc'])),
  }),
  fromSerialised: (tree) => ({
    urls: list(field(field(tree, 'urlset'), 'url')).map((entry) => text(field(entry, 'loc'))),
    children: list(field(field(tree, 'sitemapindex'), 'sitemap')).map((entry) => text(field(entry, 'loc'))),
  }),
};

/** The page URLs of `sitemap.xml`, with the child sitemaps of an index read from the bundle. */
export function collectSitemapUrls(files: BundleFiles): { path: string; urls: string[] } | undefined {
  const top = readOnce(files, SITEMAP_FILE, SITEMAP_LOCS_READER);
  if (top === undefined) return undefined;
  const urls = [...top.urls];
  for (const child of top.children) {
    if (!URL.canParse(child)) continue;
    const locs = readOnce(files, new URL(child).pathname.slice(1), SITEMAP_LOCS_READER);
    if (locs !== undefined) urls.push(...locs.urls);
  }
  return { path: SITEMAP_FILE, urls };
}
