/**
 * `/feed.xml`: the merchant product feed in Google Merchant Center's RSS 2.0 form, one
 * item per product variant, the whole catalog every time (https://support.google.com/merchants/answer/160589).
 * `checkFeed` validates a feed: well-formed XML, RSS 2.0 channel elements, and per item
 * the `g:` attributes Google requires in the shapes it requires. A feed read from a
 * directory or a site is parsed from its text; the one this build just serialised is
 * checked on the tree it was serialised from (see `FEED_READER`).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Artifact } from '../artifact.js';
import { chunkedArtifact } from '../compact-artifact.js';
import type { BuildPlan, PlannedProduct } from '../plan.js';
import { isRecord } from '../validate/bundle-layout.js';
import { type DocumentReader, readUnkept } from '../validate/parse-once.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import {
  buildFeedItem,
  buildFeedShipping,
  FEED_AVAILABILITIES,
  GOOGLE_NAMESPACE,
  MAX_DESCRIPTION_LENGTH,
  MAX_ID_LENGTH,
  MAX_TITLE_LENGTH,
} from './feed-item.js';
import { checkGoogleItemRules, screenFeedProducts } from './feed-rules.js';
import { productElements } from './fragments.js';
import { FEED_PATH, filePathOf } from './sitemap-pages.js';
import {
  buildXmlChunksWithElements,
  buildXmlElementsAtDepth2,
  hasIllegalXmlChars,
  isAbsoluteUrl,
  sanitizeXmlText,
} from './xml-text.js';

export const FEED_FILE = filePathOf(FEED_PATH);
export const FEED_MEDIA_TYPE = 'application/rss+xml; charset=utf-8';

export function emitFeed(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const shipping = buildFeedShipping(config);
  const channel = {
    title: sanitizeXmlText(`${config.merchant.name} products`),
    link: config.site_url,
    description: sanitizeXmlText(config.merchant.description ?? `Products of ${config.merchant.name}`),
    lastBuildDate: new Date(plan.generated).toUTCString(),
  };
  // Products that break a Google item rule stay in the catalog; the build warns about each.
  const itemsOf = (product: PlannedProduct): Record<string, unknown>[] =>
    screenFeedProducts([product]).items.map((offer) => buildFeedItem(offer, config, shipping));
  const fragments = productElements(plan, FEED_ITEMS, (product) =>
    buildXmlElementsAtDepth2('item', itemsOf(product)),
  );
  const frameWith = (item: Iterable<unknown>) => ({
    rss: { '@_version': '2.0', '@_xmlns:g': GOOGLE_NAMESPACE, channel: { ...channel, item } },
  });
  const chunks = buildXmlChunksWithElements(frameWith, 'item', fragments);
  // The gate's tree holds its items as an iterable that renders each product's items again
  // as it is walked, and lets them go: keeping every product's rendered items from emit to
  // the gate, and building the array of all of them, made the gate the peak of a cold build
  // (a tree of 270,000 items at 100,000 products). Rendering is pure, so the items walked
  // are the ones the fragments were written from; a rebuild's gate does not walk them
  // (incremental-gate.ts).
  const items: Iterable<Record<string, unknown>> = {
    *[Symbol.iterator]() {
      for (const product of plan.products) yield* itemsOf(product);
    },
  };
  const serialisedFrom = { body: '', value: frameWith(items) };
  return [chunkedArtifact({ path: FEED_FILE, mediaType: FEED_MEDIA_TYPE, body: '', serialisedFrom }, chunks)];
}

/** The fragment kind of a product's feed items. */
const FEED_ITEMS = 'feed-items';

const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  isArray: (name: string) =>
    ['item', 'g:shipping', 'g:free_shipping_threshold', 'g:additional_image_link'].includes(name),
};
const ITEM_PATH = 'rss.channel.item';
/** The feed without its items' contents: each item is left as its raw text (a stop node) for `itemParser`. */
const frameParser = new XMLParser({ ...PARSER_OPTIONS, stopNodes: [ITEM_PATH] });
const itemParser = new XMLParser(PARSER_OPTIONS);

export interface ParsedFeed {
  /** The rss element's attributes and elements but its channel. */
  rss: unknown;
  /** The channel's own elements (its items are in `items`). */
  channel: Record<string, unknown>;
  /** The channel's items that are elements, in order; iterable again. */
  items: Iterable<Record<string, unknown>>;
}

/** The rss element, the channel's own elements, and its items as the tree holds them. */
function frameOf(tree: unknown): { rss: unknown; channel: Record<string, unknown>; items: unknown } {
  const root = field(tree, 'rss');
  // Each part without the one inside it, so the items are only in `items`.
  const { channel: whole, ...rss } = asRecord(root);
  const { item: items, ...channel } = asRecord(whole);
  return { rss: isRecord(root) ? rss : root, channel, items };
}

/**
 * The items of a feed tree's channel: an array when parsed from text, an iterable (not an
 * array) in the tree this build's feed was emitted from, which renders them as it is walked.
 */
export function feedTreeItems(items: unknown): Iterable<unknown> {
  if (Array.isArray(items)) return items;
  return isIterable(items) ? items : [];
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value;
}

function* recordsOf(items: Iterable<unknown>): Generator<Record<string, unknown>> {
  for (const item of items) if (isRecord(item)) yield item;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The parts of a feed the checks read, from a tree in fast-xml-parser's shape. */
function feedOfTree(tree: unknown): ParsedFeed {
  const { items, ...frame } = frameOf(tree);
  return { ...frame, items: { [Symbol.iterator]: () => recordsOf(feedTreeItems(items)) } };
}

/**
 * A feed's text read as the frame (rss, channel) with each item parsed only when the items
 * are iterated, one at a time, by the same parser with the same options: the whole tree of
 * a 100,000-product feed is gigabytes, one item is a few hundred bytes. The item is the
 * one a whole parse gives (its attributes kept beside its elements).
 */
function feedOfText(body: string): ParsedFeed {
  // Entities a DOCTYPE declares are known only to a parse of the whole document.
  if (body.includes('<!DOCTYPE')) return feedOfTree(itemParser.parse(body));
  const { items, ...frame } = frameOf(frameParser.parse(body));
  return { ...frame, items: { [Symbol.iterator]: () => itemsOfRaw(Array.isArray(items) ? items : []) } };
}

/** Items parsed per call: a call's own cost is most of one item's, a batch's tree is small. */
const ITEMS_PER_PARSE = 256;

function* itemsOfRaw(raws: readonly unknown[]): Generator<Record<string, unknown>> {
  for (let from = 0; from < raws.length; from += ITEMS_PER_PARSE) {
    const batch = raws.slice(from, from + ITEMS_PER_PARSE).map((raw) => {
      const { '#text': inner = '', ...attributes } = isRecord(raw) ? raw : { '#text': raw };
      return { inner: String(inner), attributes };
    });
    const parsed = field(
      itemParser.parse(`<items>${batch.map(({ inner }) => `<item>${inner}</item>`).join('')}</items>`),
      'items',
    );
    const items = field(parsed, 'item');
    for (const [index, { attributes }] of batch.entries()) {
      const item: unknown = Array.isArray(items) ? items[index] : undefined;
      if (isRecord(item)) yield { ...item, ...attributes };
      // An item of text and attributes is an element of the whole tree too; one of text alone is not.
      else if (Object.keys(attributes).length > 0)
        yield item === undefined || item === '' ? attributes : { '#text': item, ...attributes };
    }
  }
}

type FeedReading = { ok: true; feed: ParsedFeed } | { ok: false; problem: Problem };

/**
 * The feed checked for well-formedness and parsed for `checkFeed`, its only reader, which
 * reads it once: so it is not kept for the bundle (`readUnkept`). The feed this build
 * emitted is read from the tree XMLBuilder serialised: the builder writes well-formed XML
 * from it (element names are constants, every text went through `sanitizeXmlText`), and
 * parsing the body back would give the same tree, at a sixth of the build's time for a
 * big catalog.
 */
const FEED_READER: DocumentReader<FeedReading> = {
  name: 'feed',
  parse: readFeedText,
  fromSerialised: (tree) => ({ ok: true, feed: feedOfTree(tree) }),
};

/** Undefined when the bundle has no feed; every item read (the reading `checkFeed` walks item by item). */
export function readFeed(
  files: BundleFiles,
):
  | { ok: true; feed: ParsedFeed & { items: Record<string, unknown>[] } }
  | { ok: false; problem: Problem }
  | undefined {
  const reading = readUnkept(files, FEED_FILE, FEED_READER);
  return reading?.ok ? { ok: true, feed: { ...reading.feed, items: [...reading.feed.items] } } : reading;
}

function readFeedText(body: string): FeedReading {
  const validation = XMLValidator.validate(body);
  if (validation !== true) {
    const message = `not well-formed XML (line ${validation.err.line}): ${validation.err.msg}`;
    return { ok: false, problem: { path: FEED_FILE, rule: 'xml', message } };
  }
  if (hasIllegalXmlChars(body)) {
    return {
      ok: false,
      problem: { path: FEED_FILE, rule: 'xml', message: 'contains characters XML 1.0 does not allow' },
    };
  }
  return { ok: true, feed: feedOfText(body) };
}

function field(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const FEED_PRICE = /^\d+(\.\d+)? [A-Z]{3}$/;

function checkItem(item: Record<string, unknown>, index: number, ids: Set<string>): string[] {
  const id = text(item['g:id']);
  const label = `item ${index + 1}${id === undefined ? '' : ` (g:id ${id})`}`;
  const faults: string[] = [];
  for (const name of ['g:id', 'g:title', 'g:description', 'g:link', 'g:price', 'g:availability']) {
    if ((text(item[name]) ?? '').trim() === '') faults.push(`${label}: missing ${name}`);
  }
  if (id !== undefined && id.length > MAX_ID_LENGTH)
    faults.push(`${label}: g:id longer than ${MAX_ID_LENGTH}`);
  if (id !== undefined && ids.has(id)) faults.push(`${label}: duplicate g:id`);
  if (id !== undefined) ids.add(id);
  const limits: [string, number][] = [
    ['g:title', MAX_TITLE_LENGTH],
    ['g:description', MAX_DESCRIPTION_LENGTH],
  ];
  for (const [name, max] of limits) {
    if (Array.from(text(item[name]) ?? '').length > max) faults.push(`${label}: ${name} longer than ${max}`);
  }
  for (const name of ['g:link', 'g:image_link']) {
    const url = text(item[name]);
    if (url !== undefined && !isAbsoluteUrl(url)) faults.push(`${label}: ${name} is not an absolute URL`);
  }
  const additional = item['g:additional_image_link'];
  for (const url of Array.isArray(additional) ? additional : []) {
    if (typeof url !== 'string' || !isAbsoluteUrl(url))
      faults.push(`${label}: g:additional_image_link is not an absolute URL`);
  }
  const price = text(item['g:price']);
  if (price !== undefined && !FEED_PRICE.test(price))
    faults.push(`${label}: g:price is not "12.00 USD" form`);
  const availability = text(item['g:availability']);
  if (availability !== undefined && !FEED_AVAILABILITIES.some((value) => value === availability)) {
    faults.push(`${label}: g:availability "${availability}" is not one of ${FEED_AVAILABILITIES.join(', ')}`);
  }
  if (
    (availability === 'preorder' || availability === 'backorder') &&
    item['g:availability_date'] === undefined
  ) {
    faults.push(`${label}: g:availability ${availability} requires g:availability_date`);
  }
  for (const fault of checkGoogleItemRules(item)) faults.push(`${label}: ${fault}`);
  return faults;
}

export function checkFeed(files: BundleFiles): Problem[] {
  const reading = readUnkept(files, FEED_FILE, FEED_READER);
  if (reading === undefined) return [{ path: FEED_FILE, rule: 'missing', message: 'the feed is missing' }];
  if (!reading.ok) return [reading.problem];
  const problem = (rule: string, message: string): Problem => ({ path: FEED_FILE, rule, message });
  const { rss, channel, items } = reading.feed;
  const problems: Problem[] = [];
  if (field(rss, '@_version') !== '2.0')
    problems.push(problem('feed', 'the root is not <rss version="2.0">'));
  if (field(rss, '@_xmlns:g') !== GOOGLE_NAMESPACE) {
    problems.push(problem('feed', `the g: prefix is not bound to ${GOOGLE_NAMESPACE}`));
  }
  for (const name of ['title', 'link', 'description']) {
    if ((text(channel[name]) ?? '').trim() === '') problems.push(problem('feed', `channel has no ${name}`));
  }
  const ids = new Set<string>();
  let index = 0;
  for (const item of items) {
    for (const fault of checkItem(item, index, ids)) problems.push(problem('feed', fault));
    index += 1;
  }
  return problems;
}
