/**
 * The knowledge-base Markdown read back for the gate a line at a time: its front matter
 * (the lines up to the closing `---`, parsed by gray-matter), whether it has an H1 title,
 * and its product sections, each read as the lines are walked and let go. At 100,000
 * products the document is 170 MB of text; the gate never joins its parts, never holds it
 * as one string, and keeps no copy of its sections for the rest of the bundle's checks.
 * A document of an unusual shape (no front matter, or one that never closes) is read
 * whole, the way gray-matter reads it.
 */
import matter from 'gray-matter';
import type { BundleFiles } from '../validate/problem.js';
import { documentLines } from '../validate/text-lines.js';
import {
  type KnowledgeBaseProduct,
  knowledgeBaseSectionsOfLines,
  readKnowledgeBaseProducts,
} from './kb-markdown.js';

export type KnowledgeBaseFrontMatter =
  | { ok: true; data: Record<string, unknown>; hasTitle: boolean }
  | { ok: false; error: string };

/** A knowledge base as the gate reads it: the sections are read again each time they are walked. */
export interface KnowledgeBaseStream {
  frontMatter: KnowledgeBaseFrontMatter;
  sections: Iterable<KnowledgeBaseProduct>;
}

const DELIMITER = '---';
/** Front matter longer than this is not the knowledge base's own: the document is read whole. */
const MAX_FRONT_MATTER_LINES = 1000;

/** The document's lines with `\r\n` and `\r` read as line breaks, as `readKnowledgeBaseProducts` reads them. */
function* plainLines(files: BundleFiles, path: string): Generator<string> {
  for (const [line] of documentLines(files, path)) {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.includes('\r')) yield* text.split('\r');
    else yield text;
  }
}

function* skipped(lines: Iterator<string>, count: number): Generator<string> {
  for (let at = 0; at < count; at++) if (lines.next().done === true) return;
  for (let next = lines.next(); next.done !== true; next = lines.next()) yield next.value;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The front matter's lines, closing delimiter included; undefined for a document that does not open with one that closes. */
function frontMatterLines(files: BundleFiles, path: string): string[] | undefined {
  const head: string[] = [];
  for (const line of plainLines(files, path)) {
    head.push(line);
    if (head.length === 1 && line !== DELIMITER) return undefined;
    if (head.length > 1 && line.startsWith(DELIMITER)) return line === DELIMITER ? head : undefined;
    if (head.length > MAX_FRONT_MATTER_LINES) return undefined;
  }
  return undefined;
}

/** Whether a line of the content is an H1 title (`/^# \S/m` over the content, a line at a time, stopping at the first). */
function hasTitleLine(lines: Iterable<string>): boolean {
  for (const line of lines) if (/^# \S/.test(line)) return true;
  return false;
}

/** The document read whole, as gray-matter reads it, for a shape the line reading does not know. */
function readWhole(body: string): KnowledgeBaseStream {
  try {
    const { data, content } = matter(body, {});
    const frontMatter = { ok: true as const, data, hasTitle: /^# \S/m.test(content) };
    return structuredClone({ frontMatter, sections: readKnowledgeBaseProducts(content) });
  } catch (error) {
    return structuredClone({
      frontMatter: { ok: false as const, error: errorText(error) },
      sections: readKnowledgeBaseProducts(body),
    });
  }
}

/** The knowledge base at `path`, read a line at a time; undefined when the bundle has no such file. */
export function streamKnowledgeBase(files: BundleFiles, path: string): KnowledgeBaseStream | undefined {
  if (!files.has(path)) return undefined;
  const head = frontMatterLines(files, path);
  if (head === undefined) {
    const body = files.get(path);
    return body === undefined ? undefined : readWhole(body);
  }
  const linesFrom = (from: number) => skipped(plainLines(files, path)[Symbol.iterator](), from);
  let frontMatter: KnowledgeBaseFrontMatter;
  // The sections after the front matter, or from the first line when it does not parse.
  let contentFrom = head.length;
  try {
    // A fresh options object keeps gray-matter from answering out of its cache.
    const { data } = matter(`${head.join('\n')}\n`, {});
    frontMatter = structuredClone({ ok: true, data, hasTitle: hasTitleLine(linesFrom(contentFrom)) });
  } catch (error) {
    frontMatter = { ok: false, error: errorText(error) };
    contentFrom = 0;
  }
  return {
    frontMatter,
    sections: { [Symbol.iterator]: () => knowledgeBaseSectionsOfLines(linesFrom(contentFrom)) },
  };
}
