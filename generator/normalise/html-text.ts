/**
 * Upstream descriptions are HTML written in a store's rich-text editor; the catalog
 * publishes clean text, and beside it Markdown when the HTML has structure plain text
 * cannot show (a table, a list, a link). html-to-text does the parsing and entity
 * decoding (escaping by hand is how catalogs end up with "&amp;amp;"); this module picks
 * its options and formatters (`html-formatters.ts`) and normalises whitespace: lines
 * trimmed, runs of spaces collapsed, at most one blank line between paragraphs, after
 * removing what `cleanText` removes from decoded entities. In text, a table is one row
 * per line with cells separated by " | ", a list one item per line, and a link's text is
 * followed by its URL in parentheses; a body with no tags at all keeps its line breaks;
 * HTML that was encoded twice ("&lt;p&gt;") is decoded once more, never further. In the
 * Markdown, every character of the store's text that could open Markdown structure is
 * backslash-escaped (CommonMark 2.4), so only the structure added here is structure.
 * The converters are compiled once and reused for every product, and a description seen
 * before (stores repeat one across sizes, colours and bundles) is answered from a small
 * bounded memo instead of being parsed again.
 */
import { compile, type SelectorDefinition } from 'html-to-text';
import { cleanText } from './clean-text.js';
import {
  formatMarkdownHeading,
  formatMarkdownLink,
  formatMarkdownTable,
  formatTextTable,
  readLinkTarget,
} from './html-formatters.js';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const SKIPPED: SelectorDefinition[] = ['img', 'script', 'style'].map((selector) => ({
  selector,
  format: 'skip',
}));

const convert = compile({
  wordwrap: false,
  formatters: { pipeTable: formatTextTable },
  selectors: [
    {
      selector: 'a',
      options: {
        linkBrackets: ['(', ')'],
        hideLinkHrefIfSameAsText: true,
        // Only an absolute http(s) link is worth reading out; others keep their text alone.
        pathRewrite: (path: string) => readLinkTarget(path) ?? '',
      },
    },
    ...SKIPPED,
    { selector: 'table', format: 'pipeTable' },
    ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/** A body without any tag is plain text: its line breaks are the merchant's. */
const convertPlain = compile({ wordwrap: false, preserveNewlines: true });

/** Characters that can open Markdown structure inside a line (CommonMark 2.4 lets any ASCII punctuation be escaped). */
const MARKDOWN_SPECIALS: Record<string, string> = Object.fromEntries(
  ['\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '~'].map((character) => [character, `\\${character}`]),
);

const convertMarkdown = compile({
  wordwrap: false,
  encodeCharacters: MARKDOWN_SPECIALS,
  formatters: {
    markdownTable: formatMarkdownTable,
    markdownLink: formatMarkdownLink,
    markdownHeading: formatMarkdownHeading,
  },
  selectors: [
    { selector: 'a', format: 'markdownLink' },
    ...SKIPPED,
    { selector: 'table', format: 'markdownTable' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    ...HEADINGS.map((selector) => ({ selector, format: 'markdownHeading' })),
  ],
});

const HAS_TAG = /<\/?[a-z][a-z0-9]*(?:\s[^>]*)?\/?>/i;
/** Structure that plain text cannot carry: worth a Markdown rendering. */
const HAS_STRUCTURE = /<(?:table|ul|ol)[\s>]|<a\s[^>]*\bhref=/i;
/** Tags of a description that was HTML-encoded twice: after one decoding they are still there as text. */
const ENCODED_TAG = /&lt;\/?(?:p|br|div|span|ul|ol|li|table|tr|td|th|strong|em|b|i|h[1-6])(?:\s|\/|&gt;)/i;

/**
 * Descriptions already converted in this process (text and Markdown). The answer depends
 * on the HTML alone; only short ones are kept and the memo is emptied when full, so it
 * stays under about 16 MB however many products a build (or a long-running preview)
 * converts.
 */
const converted = new Map<string, ConvertedDescription>();
const MEMO_ENTRIES = 1024;
const MEMO_MAX_LENGTH = 2048;

/** Clean text from an HTML fragment; null when nothing readable is left. */
export function convertHtmlToText(html: string | null | undefined): string | null {
  return convertDescription(html).text;
}

/** The description once decoded, when its HTML was encoded twice; else as it is. */
function decodeOnce(html: string): string {
  if (!ENCODED_TAG.test(html) || HAS_TAG.test(html)) return html;
  return convertPlain(html);
}

function convertUncached(html: string): string | null {
  const source = decodeOnce(html);
  // Entities become characters only here (`&#8;` is U+0008), after the raw JSON was
  // cleaned, so the decoded text gets the same hygiene as every other field.
  const raw = HAS_TAG.test(source) ? convert(source) : convertPlain(source);
  const text = tidyLines(cleanText(raw), (line) => line.trim());
  return text === '' ? null : text;
}

/**
 * Whitespace clean-up shared by text and Markdown: no-break and other Unicode spaces are
 * layout, not content; runs of spaces collapse; at most one blank line in a row.
 */
function tidyLines(text: string, trim: (line: string) => string): string {
  return text
    .replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000\t\f\v]/g, ' ')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => trim(line.replace(/(\S) {2,}/g, '$1 ')))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Markdown of a description with structure; undefined when there is none (the text says it all). */
function convertToMarkdown(html: string): string | undefined {
  const source = decodeOnce(html);
  if (!HAS_STRUCTURE.test(source)) return undefined;
  // Leading spaces indent nested list items; only the line ends are trimmed.
  const markdown = tidyLines(cleanText(convertMarkdown(source)), (line) => line.trimEnd());
  return markdown === '' ? undefined : markdown;
}

/** A description as clean text, and as Markdown when its HTML has structure plain text loses. */
export interface ConvertedDescription {
  text: string | null;
  markdown?: string;
}

/**
 * The description as text (`Product.description`) and, when its HTML has a table, a list
 * or a link, as Markdown too (`PlannedProduct.descriptionMarkdown`, which the Markdown
 * documents use instead of the text). Only long or structured descriptions pay for the
 * second conversion.
 */
export function convertDescription(html: string | null | undefined): ConvertedDescription {
  if (html === null || html === undefined || html.trim() === '') return { text: null };
  if (html.length > MEMO_MAX_LENGTH) return convertBoth(html);
  const known = converted.get(html);
  if (known !== undefined) return known;
  if (converted.size >= MEMO_ENTRIES) converted.clear();
  const answer = convertBoth(html);
  converted.set(html, answer);
  return answer;
}

function convertBoth(html: string): ConvertedDescription {
  const text = convertUncached(html);
  if (text === null) return { text };
  const markdown = convertToMarkdown(html);
  return markdown === undefined ? { text } : { text, markdown };
}
