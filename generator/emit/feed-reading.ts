/**
 * The feed as `checkFeed` reads it: the rss element, the channel's own elements, and its
 * items one at a time, never the whole feed's tree nor its whole text. The feed this build
 * just serialised is read from the tree XMLBuilder wrote it from (its items an iterable
 * that renders them as it is walked): the builder writes well-formed XML from it (element
 * names are constants, every text went through `sanitizeXmlText`), and parsing the body
 * back would give the same tree. A feed read from a directory or a site is walked from its
 * text a piece at a time (a parted feed part by part): its items are cut out whole
 * (`xml-cut.ts`) and each is judged and parsed by fast-xml-parser alone, then the frame
 * left, so a feed past the longest string V8 makes (1,000,000 products) is still checked.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isRecord } from '../validate/bundle-layout.js';
import { serialisedValue } from '../validate/parse-once.js';
import type { BundleFiles } from '../validate/problem.js';
import { documentTexts } from '../validate/text-lines.js';
import { XmlCutter } from '../validate/xml-cut.js';
import { FEED_FILE } from './feed.js';
import { hasIllegalXmlChars } from './xml-text.js';

const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  isArray: (name: string) =>
    ['item', 'g:shipping', 'g:free_shipping_threshold', 'g:additional_image_link'].includes(name),
};
const ITEM_PATH = ['rss', 'channel', 'item'] as const;
const parser = new XMLParser(PARSER_OPTIONS);

/** The feed but its items: the rss element's attributes and elements but its channel, and the channel's own elements. */
export interface FeedFrame {
  rss: unknown;
  channel: Record<string, unknown>;
}

/** Why a feed's text is not an XML document: a not well-formed line, or a character XML 1.0 does not allow. */
export type FeedTextFault = { kind: 'malformed'; line: number; message: string } | { kind: 'illegal-chars' };

/** The rss element, the channel's own elements, and its items as the tree holds them. */
function frameOf(tree: unknown): FeedFrame & { items: unknown } {
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

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

export function field(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined;
}

/** The channel's items that are elements, in order (an item of text alone is not one). */
function* recordsOf(items: Iterable<unknown>): Generator<Record<string, unknown>> {
  for (const item of items) if (isRecord(item)) yield item;
}

/** The frame and the items (iterable again) of the tree a feed was serialised from. */
export function feedOfTree(tree: unknown): { frame: FeedFrame; items: Iterable<Record<string, unknown>> } {
  const { items, ...frame } = frameOf(tree);
  return { frame, items: { [Symbol.iterator]: () => recordsOf(feedTreeItems(items)) } };
}

/**
 * A validator's fault in a piece of the document (an item, the frame) at the document's
 * lines: its own line, and the line its message names for the tag left open, so the words
 * are those a validation of the whole document says.
 */
function atDocumentLines(
  fault: { line: number; msg: string },
  lineOf: (line: number) => number,
): { line: number; message: string } {
  const message = fault.msg.replace(
    /\(opened in line (\d+), col/,
    (_, line: string) => `(opened in line ${lineOf(Number(line))}, col`,
  );
  return { line: lineOf(fault.line), message };
}

/** Items parsed per call: a call's own cost is most of one item's, a batch's tree is small. */
const ITEMS_PER_PARSE = 256;

/**
 * One walk of a feed's text: `items()` gives each item the whole tree would hold, in order,
 * parsed from its own text by the parser and options a parse of the whole uses (the
 * entities the DOCTYPE declares included); once they are all read, `finish()` says what is
 * wrong with the text as a document (the first not well-formed line, as a validation of the
 * whole would) or gives the frame. Items are not given past the first one not well-formed.
 */
export class FeedTextWalk {
  readonly #texts: Iterable<string>;
  readonly #cutter = new XmlCutter(ITEM_PATH);
  #malformed: { line: number; message: string } | undefined;
  #illegal = false;

  constructor(texts: Iterable<string>) {
    this.#texts = texts;
  }

  *items(): Generator<Record<string, unknown>> {
    let batch: string[] = [];
    for (const { text, line, column } of this.#cutter.elements(this.#watched())) {
      // Past a fault the items are still cut, for the frame (its fault may come earlier).
      if (this.#malformed !== undefined) continue;
      // At its column, so the validator's columns on its first line are the document's.
      const validation = XMLValidator.validate(`${' '.repeat(column - 1)}${text}`);
      if (validation !== true) {
        this.#malformed = atDocumentLines(validation.err, (at) => line + at - 1);
        continue;
      }
      batch.push(text);
      if (batch.length === ITEMS_PER_PARSE) {
        yield* this.#parse(batch);
        batch = [];
      }
    }
    if (this.#malformed === undefined) yield* this.#parse(batch);
  }

  /** What is wrong with the text as a document, else the frame. */
  finish(): { ok: true; frame: FeedFrame } | { ok: false; fault: FeedTextFault } {
    const frame = this.#cutter.frame;
    const validation = XMLValidator.validate(frame);
    const inFrame =
      validation === true
        ? undefined
        : atDocumentLines(validation.err, (at) => this.#cutter.documentLine(at));
    const malformed = [inFrame, this.#malformed]
      .filter((fault) => fault !== undefined)
      .sort((a, b) => a.line - b.line)[0];
    if (malformed !== undefined) return { ok: false, fault: { kind: 'malformed', ...malformed } };
    if (this.#illegal) return { ok: false, fault: { kind: 'illegal-chars' } };
    const { items: _items, ...rest } = frameOf(parser.parse(frame));
    return { ok: true, frame: rest };
  }

  *#watched(): Generator<string> {
    for (const piece of this.#texts) {
      if (!this.#illegal && hasIllegalXmlChars(piece)) this.#illegal = true;
      yield piece;
    }
  }

  *#parse(batch: readonly string[]): Generator<Record<string, unknown>> {
    if (batch.length === 0) return;
    const tree = parser.parse(`${this.#cutter.doctype}<items>${batch.join('')}</items>`);
    yield* recordsOf(feedTreeItems(field(field(tree, 'items'), 'item')));
  }
}

/**
 * A bundle's feed read whole, its items gathered (for a test at a small size, to compare
 * the readings from the tree and from the text); undefined when the bundle has no feed.
 */
export function readFeed(
  files: BundleFiles,
):
  | { ok: true; feed: FeedFrame & { items: Record<string, unknown>[] } }
  | { ok: false; fault: FeedTextFault }
  | undefined {
  if (!files.has(FEED_FILE)) return undefined;
  const seed = serialisedValue(files, FEED_FILE);
  if (seed !== undefined) {
    const { frame, items } = feedOfTree(seed.value);
    return { ok: true, feed: { ...frame, items: [...items] } };
  }
  const walk = new FeedTextWalk(documentTexts(files, FEED_FILE) ?? []);
  const items = [...walk.items()];
  const reading = walk.finish();
  return reading.ok ? { ok: true, feed: { ...reading.frame, items } } : reading;
}
