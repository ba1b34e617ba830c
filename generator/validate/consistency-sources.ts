/**
 * Readers that pull the product facts out of the documents the consistency check
 * compares: the feed's items, the URLs a sitemap lists (following a sitemap index into
 * the bundle's child sitemaps) and the absolute URLs a Markdown or plain-text document
 * links. Well-formedness is not judged here: the feed and sitemap checkers parse those
 * files fully with fast-xml-parser and report any fault. This module only needs three
 * elements per item and one per URL, and a linear scan of the text finds them about
 * twenty times faster than building the whole tree, which matters at 50,000 products
 * (a 25 MB feed). For the documents this build serialised, the facts come from the tree
 * they were serialised from and nothing is scanned (`parse-once.ts`). Either way they are
 * read an item at a time as the check walks them, and kept by no one.
 */
import { FEED_FILE } from '../emit/feed.js';
import { feedTreeItems } from '../emit/feed-reading.js';
import { readFeedShipping } from '../shipping/feed-shipping.js';
import { isRecord } from './bundle-layout.js';
import { serialisedValue } from './parse-once.js';
import type { BundleFiles } from './problem.js';
import { documentTexts } from './text-lines.js';
import { blocks, blocksOfTexts } from './xml-blocks.js';

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

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function field(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

type FeedItemFacts = FeedFacts['items'][number];

/** One item's facts, scanned from its text. */
function factsOfText(item: string): FeedItemFacts {
  return {
    id: elementText(item, ['g:id']),
    link: elementText(item, ['g:link', 'link']),
    price: elementText(item, ['g:price']),
    salePrice: elementText(item, ['g:sale_price']),
    availability: elementText(item, ['g:availability']),
    shipping: readFeedShipping(scanShipping(item)),
  };
}

/** One item's facts, from the tree XMLBuilder wrote it from (whose text values are what decoding the body gives). */
function factsOfTree(item: unknown): FeedItemFacts {
  return {
    id: text(field(item, 'g:id')),
    link: text(field(item, 'g:link') ?? field(item, 'link')),
    price: text(field(item, 'g:price')),
    salePrice: text(field(item, 'g:sale_price')),
    availability: text(field(item, 'g:availability')),
    shipping: isRecord(item) ? readFeedShipping(item) : undefined,
  };
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/**
 * The feed's items as the consistency check needs them, one at a time and kept by no one:
 * scanned from the text a piece at a time, or, for the feed this build serialised, taken
 * from the tree it was written from, which renders its items as they are walked. Held for
 * the bundle, they were a quarter of the gate's memory (270,000 items at 100,000 products).
 */
export function streamFeedItems(
  files: BundleFiles,
): { path: string; items: Iterable<FeedItemFacts> } | undefined {
  if (!files.has(FEED_FILE)) return undefined;
  const seed = serialisedValue(files, FEED_FILE);
  const items: Iterable<FeedItemFacts> =
    seed === undefined
      ? {
          [Symbol.iterator]: () =>
            mapped(blocksOfTexts(documentTexts(files, FEED_FILE) ?? [], 'item'), factsOfText),
        }
      : {
          [Symbol.iterator]: () =>
            mapped(feedTreeItems(field(field(field(seed.value, 'rss'), 'channel'), 'item')), factsOfTree),
        };
  return { path: FEED_FILE, items };
}

/** The feed's items as `streamFeedItems` reads them, gathered (for a caller that needs them all at once). */
export function readFeedItems(files: BundleFiles): FeedFacts | undefined {
  const feed = streamFeedItems(files);
  return feed === undefined ? undefined : { path: feed.path, items: [...feed.items] };
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

/**
 * The `<loc>` of each `<tag>` entry of one sitemap, one at a time and kept by no one: from
 * the tree this build serialised it from, or scanned from its text a piece at a time.
 */
function* sitemapLocs(
  files: BundleFiles,
  path: string,
  [root, tag]: readonly ['urlset', 'url'] | readonly ['sitemapindex', 'sitemap'],
): Generator<string> {
  const seed = serialisedValue(files, path);
  if (seed !== undefined) {
    for (const entry of list(field(field(seed.value, root), tag))) yield text(field(entry, 'loc'));
    return;
  }
  for (const block of blocksOfTexts(documentTexts(files, path) ?? [], tag)) yield elementText(block, ['loc']);
}

const PAGES = ['urlset', 'url'] as const;
const CHILDREN = ['sitemapindex', 'sitemap'] as const;

function* allSitemapUrls(files: BundleFiles): Generator<string> {
  yield* sitemapLocs(files, SITEMAP_FILE, PAGES);
  for (const child of [...sitemapLocs(files, SITEMAP_FILE, CHILDREN)]) {
    if (!URL.canParse(child)) continue;
    const path = new URL(child).pathname.slice(1);
    if (files.has(path)) yield* sitemapLocs(files, path, PAGES);
  }
}

/**
 * The page URLs of `sitemap.xml`, with the child sitemaps of an index read from the bundle,
 * one at a time each time they are walked (the consistency check's only reading of them).
 */
export function streamSitemapUrls(files: BundleFiles): { path: string; urls: Iterable<string> } | undefined {
  if (!files.has(SITEMAP_FILE)) return undefined;
  return { path: SITEMAP_FILE, urls: { [Symbol.iterator]: () => allSitemapUrls(files) } };
}

/** The page URLs `streamSitemapUrls` walks, gathered. */
export function collectSitemapUrls(files: BundleFiles): { path: string; urls: string[] } | undefined {
  const sitemap = streamSitemapUrls(files);
  return sitemap === undefined ? undefined : { path: sitemap.path, urls: [...sitemap.urls] };
}
