/**
 * Reads the repository's Markdown the way its tests need: the fenced blocks marked
 * runnable (the line right before the opening fence is `<!-- runnable -->`), the links
 * outside code, and the anchors GitHub makes from headings. Pure: text in, data out.
 */

export const RUNNABLE_MARKER = '<!-- runnable -->';
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  /** Lines between the fences. */
  length: number;
  runnable: boolean;
}

interface Fence {
  marker: string;
  line: number;
  language: string;
  runnable: boolean;
  body: string[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;

/** Every fenced code block, in order; an unclosed fence runs to the end, as CommonMark says. */
export function codeBlocks(text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  let open: Fence | undefined;
  lines.forEach((line, index) => {
    const match = FENCE.exec(line);
    if (open === undefined) {
      if (!match?.[1]) return;
      const runnable = index > 0 && lines[index - 1]?.trim() === RUNNABLE_MARKER;
      open = { marker: match[1], line: index + 1, language: match[2] ?? '', runnable, body: [] };
      return;
    }
    const closing = match?.[1];
    if (closing?.[0] === open.marker[0] && closing.length >= open.marker.length && !match?.[2]) {
      blocks.push(finish(open));
      open = undefined;
      return;
    }
    open.body.push(line);
  });
  if (open) blocks.push(finish(open));
  return blocks;
}

function finish(fence: Fence): CodeBlock {
  const { line, language, runnable, body } = fence;
  return { line, language, runnable, code: body.join('\n'), length: body.length };
}

/** The runnable blocks; a runnable marker on anything but a shell block is an error. */
export function runnableBlocks(text: string, file: string): CodeBlock[] {
  const blocks = codeBlocks(text).filter((block) => block.runnable);
  for (const block of blocks)
    if (!SHELL_LANGUAGES.has(block.language))
      throw new TypeError(
        `${file}:${block.line}: a runnable block must be a sh or bash block, not "${block.language}"`,
      );
  return blocks;
}

/** The text's lines with fenced blocks (fences included) blanked, so line numbers stay. */
function linesOutsideFences(text: string): string[] {
  const lines = text.split('\n');
  for (const block of codeBlocks(text))
    for (let i = block.line - 1; i <= block.line + block.length && i < lines.length; i++) lines[i] = '';
  return lines;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)`, autolinks `<scheme:…>`, and reference definitions. */
export function links(text: string): Link[] {
  const found: Link[] = [];
  linesOutsideFences(text)
    .map((line) => line.replace(/(`+)[^`]*?\1/g, ''))
    .forEach((line, index) => {
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        if (match[1]) found.push({ line: index + 1, target: match[1] });
      for (const match of line.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi))
        if (match[1]) found.push({ line: index + 1, target: match[1] });
      const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (definition?.[1]) found.push({ line: index + 1, target: definition[1] });
    });
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor the document's headings make, duplicates numbered as GitHub numbers them. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of linesOutsideFences(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = headingSlug(heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}
