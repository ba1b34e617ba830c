/**
 * Upstream descriptions are HTML written in a store's rich-text editor; the catalog
 * publishes clean text. html-to-text does the parsing and entity decoding (escaping by
 * hand is how catalogs end up with "&amp;amp;"); this module only picks its options
 * (no link URLs in brackets, no images, headings in their own case, no hard wrapping)
 * and normalises whitespace: lines trimmed, runs of spaces collapsed, at most one blank
 * line between paragraphs, after removing what `cleanText` removes from decoded entities.
 * The converter is compiled once and reused for every product,
 * and a description seen before (stores repeat one across sizes, colours and bundles) is
 * answered from a small bounded memo instead of being parsed again.
 */
import { compile } from 'html-to-text';
import { cleanText } from './clean-text.js';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
  selector,
  options: { uppercase: false },
}));

const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ...HEADINGS,
  ],
});

/**
 * Descriptions already converted in this process. The answer depends on the HTML alone;
 * only short ones are kept and the memo is emptied when full, so it stays under about
 * 8 MB however many products a build (or a long-running preview) converts.
 */
const converted = new Map<string, string | null>();
const MEMO_ENTRIES = 1024;
const MEMO_MAX_LENGTH = 2048;

/** Clean text from an HTML fragment; null when nothing readable is left. */
export function convertHtmlToText(html: string | null | undefined): string | null {
  if (html === null || html === undefined || html.trim() === '') return null;
  if (html.length > MEMO_MAX_LENGTH) return convertUncached(html);
  const known = converted.get(html);
  if (known !== undefined) return known;
  if (converted.size >= MEMO_ENTRIES) converted.clear();
  const text = convertUncached(html);
  converted.set(html, text);
  return text;
}

function convertUncached(html: string): string | null {
  // Entities become characters only here (`&#8;` is U+0008), after the raw JSON was
  // cleaned, so the decoded text gets the same hygiene as every other field.
  const text = cleanText(convert(html))
    // No-break and other Unicode spaces are layout, not content.
    .replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000\t\f\v]/g, ' ')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' ? null : text;
}

/** A description as clean text, and as Markdown when its HTML has structure plain text loses. */
export interface ConvertedDescription {
  text: string | null;
  markdown?: string;
}

export function convertDescription(html: string | null | undefined): ConvertedDescription {
  return { text: convertHtmlToText(html) };
}
