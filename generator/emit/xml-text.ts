/**
 * Values made safe for the bundle's XML and text documents before a library serialises
 * them: characters that XML 1.0 forbids are removed (escaping cannot represent them),
 * long text is cut on a character boundary, and URLs taken from products are checked,
 * never silently rewritten, so every document links to exactly the URL the catalog gives.
 * Escaping itself (`&`, `<`, quotes, `]]>`) stays with fast-xml-parser's XMLBuilder.
 */
import { XMLBuilder, type XmlBuilderOptions } from 'fast-xml-parser';
import type { DocumentPiece } from '../document-pieces.js';
import { CatalogError } from '../errors.js';
import type { ProductElements } from '../plan.js';

/**
 * XML 1.0 (Fifth Edition) section 2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] |
 * [#xE000-#xFFFD] | [#x10000-#x10FFFF]. Anything else (C0 controls, lone surrogates,
 * U+FFFE/U+FFFF) makes a document not well-formed, even as a character reference.
 */
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes characters XML 1.0 cannot carry and normalises line ends to `\n`. */
export function sanitizeXmlText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ILLEGAL_XML_CHARS, '');
}

// Without the global flag, so `test` keeps no lastIndex between calls.
const ILLEGAL_XML_CHAR = new RegExp(ILLEGAL_XML_CHARS.source, 'u');

/** True when the text holds a character XML 1.0 cannot carry. */
export function hasIllegalXmlChars(text: string): boolean {
  return ILLEGAL_XML_CHAR.test(text);
}

/** Cuts text to at most `max` characters (code points), ending with an ellipsis when cut. */
export function truncateText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** Sitemaps protocol: "must be less than 2,048 characters". Used for every published link. */
export const MAX_URL_LENGTH = 2047;

/**
 * URLs `requireAbsoluteUrl` accepted. Every product URL is checked by five documents (the
 * feed, the sitemap, the knowledge base, llms.txt and llms-full.txt) and again by the
 * gate, so each is parsed once instead of five or more times. The answer depends on the
 * string alone; the set is bounded so a long-running preview server cannot grow it
 * without end. 50,000 holds a 20,000-product shop's product and image URLs; past that,
 * each document walks more URLs than the set holds before it comes round again, so a
 * larger set only held more strings (200,000 held 22 MB at 100,000 products and beyond).
 */
const acceptedUrls = new Set<string>();
const MAX_REMEMBERED_URLS = 50_000;

function rememberAccepted(url: string): void {
  if (acceptedUrls.size >= MAX_REMEMBERED_URLS) acceptedUrls.clear();
  acceptedUrls.add(url);
}

/**
 * Returns the URL when it is an absolute http(s) URL already in normal form (no spaces,
 * nothing a parser would rewrite); otherwise refuses it, naming the product and field.
 */
export function requireAbsoluteUrl(value: string, where: { product?: string; field: string }): string {
  if (acceptedUrls.has(value)) return value;
  const subject = where.product === undefined ? where.field : `product "${where.product}": ${where.field}`;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  const problem =
    parsed === undefined
      ? 'is not an absolute URL'
      : !/^https?:$/.test(parsed.protocol)
        ? 'is not an http(s) URL'
        : parsed.href !== value && parsed.href !== `${value}/`
          ? 'is not a normalised URL (spaces or characters that need percent-encoding)'
          : value.length > MAX_URL_LENGTH
            ? `is longer than ${MAX_URL_LENGTH} characters`
            : undefined;
  if (problem === undefined) {
    rememberAccepted(value);
    return value;
  }
  const code = where.product === undefined ? 'OUTPUT_INVALID' : 'PRODUCT_INVALID';
  throw new CatalogError(code, `${subject} ${JSON.stringify(value)} ${problem}`, {
    ...(where.product === undefined ? {} : { product: where.product }),
    field: where.field,
    value,
  });
}

/** True when the value is an absolute http(s) URL that `requireAbsoluteUrl` would accept. */
export function isAbsoluteUrl(value: string): boolean {
  try {
    requireAbsoluteUrl(value, { field: 'url' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `jPath: false` (fast-xml-builder's own option, absent from fast-xml-parser's types):
 * by default the builder spells out every element's path as a string for callbacks;
 * none is configured here, and building those strings was a tenth of writing the feed.
 */
const BUILDER_OPTIONS: XmlBuilderOptions & { jPath: boolean } = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  jPath: false,
};

const builder = new XMLBuilder(BUILDER_OPTIONS);

/** Serialises a fast-xml-parser object tree with the XML declaration, escaping by the library. */
export function buildXmlDocument(root: Record<string, unknown>): string {
  const body = builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root });
  return body.endsWith('\n') ? body : `${body}\n`;
}

/** A text no element of ours holds: where the repeated elements go in the document's frame. */
const ELEMENTS_MARK = 'agent-catalog-elements-go-here';

/**
 * `name` elements built as children two levels down (`<rss><channel><item>`), each laid
 * out exactly as `buildXmlDocument` lays them out inside the whole document.
 */
export function buildXmlElementsAtDepth2(name: string, elements: readonly unknown[]): string {
  if (elements.length === 0) return '';
  const text = builder.build({ a: { b: { [name]: elements } } }) as string;
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  // Drop the two frame lines at each end: <a>, <b> … </b>, </a>.
  return `${lines.slice(2, -2).join('\n')}\n`;
}

/**
 * `buildXmlDocument(frameWith(elements))`, where `frameWith` puts the repeated `name`
 * elements two levels down, and the elements are the `fragments` (each from
 * `buildXmlElementsAtDepth2`): the same bytes, as chunks in order (the frame's head, the
 * fragments, its tail), never joined into the whole text or one buffer.
 */
export function buildXmlChunksWithElements(
  frameWith: (elements: unknown[]) => Record<string, unknown>,
  name: string,
  fragments: ProductElements,
): DocumentPiece[] {
  // A product with no element (an empty fragment) adds no bytes, and with none at all the
  // frame's head and tail are what the frame alone is: its line of elements is a whole line.
  if (fragments.length === 0) return [Buffer.from(buildXmlDocument(frameWith([])), 'utf8')];
  const frame = buildXmlDocument(frameWith([ELEMENTS_MARK]));
  const line = `    <${name}>${ELEMENTS_MARK}</${name}>\n`;
  const at = frame.indexOf(line);
  if (at < 0) throw new TypeError(`buildXmlChunksWithElements: no <${name}> two levels down`);
  return [
    Buffer.from(frame.slice(0, at), 'utf8'),
    { elements: fragments },
    Buffer.from(frame.slice(at + line.length), 'utf8'),
  ];
}
