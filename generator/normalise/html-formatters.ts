/**
 * html-to-text formatters for what its built-in ones lose in a product description:
 * a table's columns (its data-table layout pads cells with spaces, which the text's
 * whitespace clean-up then collapses, so "8 ½" under L reads as two columns), and links
 * in Markdown. Tables become one row per line, cells separated by " | ", in text, and a
 * GFM pipe table in Markdown; a Markdown link keeps its http(s) URL. The walk over the
 * table mirrors html-to-text's own data-table formatter; only the printing differs.
 */
import type { DomNode, FormatCallback } from 'html-to-text';

interface Cell {
  text: string;
  colspan: number;
}

function readSpan(node: DomNode): number {
  const attributes: unknown = node.attribs;
  const raw =
    typeof attributes === 'object' && attributes !== null
      ? (attributes as Record<string, unknown>).colspan
      : undefined;
  const span = Number(raw);
  return Number.isInteger(span) && span > 1 && span <= 50 ? span : 1;
}

/** The table's rows of cells, walked the way html-to-text walks a data table. */
function formatRows(printRows: (rows: Cell[][]) => string): FormatCallback {
  return (elem, walk, builder, formatOptions) => {
    builder.openTable();
    const visit = (node: DomNode): void => {
      if (node.type !== 'tag') return;
      if (node.name === 'thead' || node.name === 'tbody' || node.name === 'tfoot') {
        for (const child of node.children ?? []) visit(child);
        return;
      }
      if (node.name !== 'tr') return;
      builder.openTableRow();
      for (const cell of node.children ?? []) {
        if (cell.type !== 'tag' || (cell.name !== 'td' && cell.name !== 'th')) continue;
        builder.openTableCell();
        walk(cell.children ?? [], builder);
        builder.closeTableCell({ colspan: readSpan(cell), rowspan: 1 });
      }
      builder.closeTableRow();
    };
    for (const child of elem.children ?? []) visit(child);
    builder.closeTable({
      tableToString: (rows) =>
        printRows(
          rows.map((row) => row.map((cell) => ({ text: flatten(cell.text), colspan: cell.colspan }))),
        ),
      leadingLineBreaks: formatOptions.leadingLineBreaks ?? 2,
      trailingLineBreaks: formatOptions.trailingLineBreaks ?? 2,
    });
  };
}

/** A cell is one line: its own line breaks become spaces. */
function flatten(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** A cell spanning columns repeats its text, so every row has a value under every header. */
function expand(row: readonly Cell[]): string[] {
  return row.flatMap((cell) => Array.from({ length: cell.colspan }, () => cell.text));
}

/** Text: one row per line, cells separated by " | "; a "|" inside a cell becomes "/" so the separator stays unambiguous. */
export const formatTextTable: FormatCallback = formatRows((rows) =>
  rows
    .map(expand)
    .filter((cells) => cells.some((cell) => cell !== ''))
    .map((cells) => cells.map((cell) => cell.replace(/\|/g, '/')).join(' | '))
    .join('\n'),
);

/**
 * Markdown: a GFM pipe table whose first row is the header (size charts put the sizes
 * there). Cell text was escaped by the converter (`|` included), so a cell cannot end
 * one early; short rows are padded so every row has the header's width.
 */
export const formatMarkdownTable: FormatCallback = formatRows((rows) => {
  const lines = rows.map(expand).filter((cells) => cells.some((cell) => cell !== ''));
  const width = Math.max(0, ...lines.map((cells) => cells.length));
  if (width === 0) return '';
  const pad = (cells: string[]) => [...cells, ...Array<string>(width - cells.length).fill('')];
  const print = (cells: string[]) => `| ${pad(cells).join(' | ')} |`;
  const [header = [], ...body] = lines;
  return [print(header), print(Array<string>(width).fill('---')), ...body.map(print)].join('\n');
});

/** An absolute http(s) link target, with the characters that would end a Markdown link destination encoded. */
export function readLinkTarget(href: unknown): string | undefined {
  if (typeof href !== 'string' || !URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.href.replace(
    /[()<> ]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Markdown: `[text](url)` for an absolute http(s) link; any other link keeps only its text. */
export const formatMarkdownLink: FormatCallback = (elem, walk, builder) => {
  const attributes: unknown = elem.attribs;
  const target = readLinkTarget(
    typeof attributes === 'object' && attributes !== null
      ? (attributes as Record<string, unknown>).href
      : undefined,
  );
  if (target === undefined) {
    walk(elem.children ?? [], builder);
    return;
  }
  builder.addInline('[', { noWordTransform: true });
  walk(elem.children ?? [], builder);
  builder.addInline(`](${target})`, { noWordTransform: true });
};

/** Markdown: a heading inside a description is a bold line, so it never breaks the outline of the page it is placed in. */
export const formatMarkdownHeading: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addInline('**', { noWordTransform: true });
  walk(elem.children ?? [], builder);
  builder.addInline('**', { noWordTransform: true });
  builder.closeBlock({ trailingLineBreaks: 2 });
};
