/**
 * The loadContent stage: reads the merchant's Markdown files (`<content_dir>/products/
 * <slug>.md` and `<content_dir>/articles/<slug>.md`), parses their front matter with
 * gray-matter and validates it. Parsing is split from reading so the rules are tested
 * on strings. Any problem is CONTENT_INVALID naming the file and the field.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import matter from 'gray-matter';
import type { z } from 'zod';
import { isUsableSlug, SLUG_RULE_TEXT, slugKey } from '../../record/slug.js';
import { CatalogError } from '../errors.js';
import type { Article } from '../plan.js';
import {
  articleFrontMatterSchema,
  CONTENT_LIMITS,
  hasForbiddenCharacters,
  type ProductFrontMatter,
  productFrontMatterSchema,
} from './schema.js';

/** What a product's content file adds, keyed by the product slug it is named after. */
export interface ProductContent {
  slug: string;
  /** The file as named in messages (relative to the config directory). */
  file: string;
  fields: ProductFrontMatter;
}

export interface MerchantContent {
  products: ProductContent[];
  articles: Article[];
}

// gray-matter evaluates `---js` front matter with eval(); content is data, never code.
const refuseEngine = {
  parse(): object {
    throw new Error('only YAML front matter is accepted');
  },
};
const MATTER_OPTIONS = { engines: { js: refuseEngine, javascript: refuseEngine, coffee: refuseEngine } };

function contentError(file: string, message: string, field?: string, cause?: unknown): CatalogError {
  const where = field ? `${file}: ${field}` : file;
  return new CatalogError(
    'CONTENT_INVALID',
    `invalid content in ${where}: ${message}`,
    { file, field },
    { cause },
  );
}

function splitFrontMatter(file: string, text: string): { data: unknown; body: string } {
  if (Buffer.byteLength(text) > CONTENT_LIMITS.fileBytes) {
    throw contentError(file, `larger than ${CONTENT_LIMITS.fileBytes} bytes`);
  }
  try {
    const parsed = matter(text.replace(/\r\n?/g, '\n'), MATTER_OPTIONS);
    return { data: parsed.data, body: parsed.content.trim() };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw contentError(file, `front matter is not valid YAML (${reason})`, undefined, error);
  }
}

function validateFields<S extends z.ZodType>(file: string, schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const others = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw contentError(file, `${issue?.message ?? 'invalid'}${others}`, field, parsed.error);
}

function checkBody(file: string, body: string, max: number): void {
  if (body.length > max) throw contentError(file, `must be at most ${max} characters`, 'body');
  if (hasForbiddenCharacters(body)) throw contentError(file, 'must not contain control characters', 'body');
}

/**
 * The slug a file is named after, by the rule a store's handle follows (an Arabic handle's
 * file is `content/products/كابل-شحن.md`), in the form slugs are matched in: a file
 * system may hand back the name decomposed (NFD), as macOS did.
 */
function slugOf(file: string): string {
  const name = file.split('/').at(-1) ?? file;
  const slug = slugKey(name.replace(/\.md$/, ''));
  if (!isUsableSlug(slug)) {
    throw contentError(file, `file name must be the product slug: ${SLUG_RULE_TEXT}`);
  }
  return slug;
}

/** Parses one product content file; the Markdown body, when present, is the description. */
export function parseProductContent(file: string, text: string): ProductContent {
  const slug = slugOf(file);
  const { data, body } = splitFrontMatter(file, text);
  const fields = validateFields(file, productFrontMatterSchema, data ?? {});
  if (body !== '') {
    if (fields.description !== undefined) {
      throw contentError(file, 'given both in the front matter and as the Markdown body', 'description');
    }
    checkBody(file, body, CONTENT_LIMITS.descriptionChars);
    fields.description = body;
  }
  return { slug, file, fields };
}

export function parseArticle(file: string, text: string): Article {
  const slug = slugOf(file);
  const { data, body } = splitFrontMatter(file, text);
  const fields = validateFields(file, articleFrontMatterSchema, data ?? {});
  checkBody(file, body, CONTENT_LIMITS.articleBodyChars);
  if (body === '') throw contentError(file, 'an article needs a Markdown body', 'body');
  return {
    slug,
    title: fields.title,
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    body: `${body}\n`,
    ...(fields.updated !== undefined ? { updated: fields.updated } : {}),
  };
}

/** Markdown files of one folder, sorted so the output does not depend on the file system. */
async function listMarkdown(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT') return [];
    throw contentError(dir, 'cannot read the folder', undefined, error);
  }
}

async function readAll<T>(
  dir: string,
  baseDir: string,
  parse: (file: string, text: string) => T,
): Promise<T[]> {
  const results: T[] = [];
  for (const name of await listMarkdown(dir)) {
    const path = join(dir, name);
    const file = relative(baseDir, path).split('\\').join('/');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw contentError(file, 'cannot read the file', undefined, error);
    }
    results.push(parse(file, text));
  }
  return results;
}

/** Reads `products/` and `articles/` under the content folder; a missing folder means no content. */
export async function loadContent(contentDir: string, baseDir: string): Promise<MerchantContent> {
  const products = await readAll(join(contentDir, 'products'), baseDir, parseProductContent);
  const articles = await readAll(join(contentDir, 'articles'), baseDir, parseArticle);
  return { products, articles };
}
