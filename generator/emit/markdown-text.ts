/**
 * Untrusted text (product names, descriptions, ingredient lists from the upstream store)
 * made inert inside the Markdown documents (the knowledge base, llms.txt): it can add
 * words but never structure. No library escapes CommonMark inline text, so this module
 * is the one small, tested place that does, using only CommonMark backslash escapes
 * (CommonMark 0.31, section 2.4: "Any ASCII punctuation character may be backslash-escaped").
 * It also shifts the headings of the merchant's own article Markdown so articles nest
 * under the knowledge base's outline.
 */
import { sanitizeXmlText } from './xml-text.js';

/**
 * Characters that open structure anywhere in a line: links and images (`[`, `]`), raw
 * HTML and autolinks (`<`, `>`), code spans (`` ` ``) and the escape character itself.
 */
const INLINE_SPECIALS = /[\\`[\]<>]/g;

/**
 * Markers that start a block only at the beginning of a line: headings (`#`), list items
 * (a marker then a space), thematic breaks and fences (three alike), setext underlines.
 * "42.00" or "-5%" stay as they are; only a real marker is escaped.
 */
const LEADING_BLOCK_MARKER = /^(?:#|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)|([-*_=~+])\1\1|=+$|-+$)/;

/**
 * Text every rule here leaves as it is: words of printable ASCII without a structure
 * character or `#` (so nothing to sanitise or escape), one space apart (nothing to fold
 * or trim). Only a leading block marker is left to rule out. Most names, variant titles
 * and prices are such text: returning them at once saves the five replacements, about a
 * second of CPU at 10,000 products.
 */
const PLAIN_INLINE = /^[!"$-;=?-Z^_a-z{|}~]+(?: [!"$-;=?-Z^_a-z{|}~]+)*$/;

/** One line of inert inline Markdown: line breaks become spaces, structure characters are escaped. */
export function escapeMarkdownInline(text: string): string {
  if (PLAIN_INLINE.test(text) && !LEADING_BLOCK_MARKER.test(text)) return text;
  const flat = sanitizeXmlText(text)
    .replace(/[\s\u2028\u2029]+/g, ' ')
    .trim();
  // A trailing run of `#` after a space would be read as a heading's closing sequence.
  const escaped = flat.replace(INLINE_SPECIALS, (char) => `\\${char}`).replace(/(\s)(#+)$/, '$1\\$2');
  return escaped.replace(LEADING_BLOCK_MARKER, (marker) =>
    /^\d/.test(marker) ? `${marker.slice(0, -1)}\\${marker.slice(-1)}` : `\\${marker}`,
  );
}

/** Paragraphs of inert Markdown: blank lines separate paragraphs, everything else is inline text. */
export function escapeMarkdownParagraphs(text: string): string {
  return sanitizeXmlText(text)
    .split(/\n[ \t]*\n/)
    .map((paragraph) => escapeMarkdownInline(paragraph))
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/**
 * A Markdown link. The destination is a URL already checked by `requireAbsoluteUrl`
 * (no spaces); parentheses are escaped so an unbalanced one cannot end the link early.
 */
export function formatMarkdownLink(text: string, url: string): string {
  const destination = url.replace(/[()\\]/g, (char) => `\\${char}`);
  return `[${escapeMarkdownInline(text)}](${destination})`;
}

/**
 * A GitHub-flavoured Markdown table (GFM 0.29, "Tables (extension)") of inert cells: each
 * cell is inline text as `escapeMarkdownInline` makes it, with the pipe escaped too ("It
 * is possible to include a pipe in a cell's content by escaping it"). Every row has the
 * header's number of cells.
 */
export function formatMarkdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) =>
    `| ${header.map((_, index) => escapeMarkdownTableCell(cells[index] ?? '')).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}

function escapeMarkdownTableCell(text: string): string {
  return escapeMarkdownInline(text).replace(/\|/g, '\\|');
}

/** The cells of one table row written by `formatMarkdownTable`, escapes resolved; undefined for another line. */
export function readMarkdownTableRow(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|') || trimmed.length < 2) return undefined;
  const cells: string[] = [];
  let cell = '';
  for (let index = 1; index < trimmed.length; index++) {
    const char = trimmed[index];
    if (char === '\\' && index + 1 < trimmed.length - 1) {
      cell += trimmed.slice(index, index + 2);
      index++;
    } else if (char === '|') {
      cells.push(unescapeMarkdown(cell.trim()));
      cell = '';
    } else cell += char;
  }
  return cells;
}

/** Undoes the CommonMark backslash escapes these helpers write. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

/**
 * Demotes every heading of a trusted Markdown document by `levels` (ATX `#` headings and
 * setext underlined ones, outside fenced code), capped at level 6, so an article's `#`
 * title sits below the knowledge base's own sections.
 */
export function shiftHeadings(markdown: string, levels: number): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch?.[1]?.startsWith(fence)) fence = undefined;
      out.push(line);
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = fenceMatch[1].slice(0, 3);
      out.push(line);
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading?.[1] !== undefined) {
      const level = Math.min(6, heading[1].length + levels);
      out.push(`${'#'.repeat(level)}${line.slice(heading[0].length)}`);
      continue;
    }
    const previous = out.at(-1);
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline?.[1] !== undefined && previous !== undefined && isParagraphLine(previous)) {
      const level = Math.min(6, (underline[1].startsWith('=') ? 1 : 2) + levels);
      out[out.length - 1] = `${'#'.repeat(level)} ${previous.trim()}`;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

function isParagraphLine(line: string): boolean {
  return line.trim() !== '' && !ATX_HEADING.test(line) && !/^ {0,3}([-+*>]|\d{1,9}[.)])[ \t]/.test(line);
}
