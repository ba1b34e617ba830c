/**
 * What preview answers at `/` when the bundle has nothing there: in deployment model (b)
 * the bundle lives at the store's own origin and `/` is the store's home page, so the
 * bundle has no landing page and the hosts answer `/` from the store (or 404). Preview
 * instead answers with a small page naming every document the bundle serves, and its
 * Markdown twin for a client whose `Accept` prefers `text/markdown`, saying that on the
 * real host `/` belongs to the store. A preview-only convenience at `/` alone: every other
 * path is answered exactly as the hosts would (issue 24, docs/preview-and-check.md).
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import Handlebars from 'handlebars';
import { TEMPLATES_DIR } from '../paths.js';
import type { HostingRules } from './hosting-rules.js';
import { isHiddenPath } from './request-path.js';
import type { HeaderList } from './respond.js';

export const ROOT_PAGE_NOTE =
  'Preview only: on the real host, / belongs to the store (the bundle is served at the store’s own origin, deployment model (b)), so this page is not published. Every other path here is answered as the host answers it.';

/** Files that are not documents at their own path: `404.html` is the body of every missing path. */
const NOT_LISTED = new Set(['/404.html']);

/**
 * A folder of more than this many files (a page per product) shows its first
 * `FOLDER_SHOWN` and a count, so the page stays readable; the root is always listed whole.
 */
export const FOLDER_FOLDED_OVER = 50;
export const FOLDER_SHOWN = 10;

/** A line of the page: a served path, or how many more a large folder holds (`more` > 0). */
export interface RootPageEntry {
  path: string;
  more: number;
}

let template: Handlebars.TemplateDelegate | undefined;

/**
 * The URL paths of the bundle's documents, sorted: a file under the path a 200 rewrite
 * serves it at (`/agent-catalog` for `agent-catalog.json`), a directory's `index.html`
 * at its slash URL, and every other file at its own path.
 */
export function servedPaths(files: readonly string[], rules: Pick<HostingRules, 'redirects'>): string[] {
  const rewrites = new Map<string, string>();
  for (const rule of rules.redirects) {
    if (rule.status === 200 && rule.to.startsWith('/') && !rule.from.includes('*')) {
      rewrites.set(rule.to, rule.from);
    }
  }
  const paths = new Set<string>();
  for (const file of files) {
    const path = `/${file}`;
    if (isHiddenPath(path) || NOT_LISTED.has(path)) continue;
    paths.add(rewrites.get(path) ?? path.replace(/(^|\/)index\.html$/, '$1'));
  }
  return [...paths].sort();
}

/** The page's lines: every path, but a large folder (not the root) as its first few and a count. */
export function foldLargeFolders(paths: readonly string[]): RootPageEntry[] {
  const folderOf = (path: string): string => path.slice(0, path.lastIndexOf('/', path.length - 2) + 1);
  const sizes = new Map<string, number>();
  for (const path of paths) sizes.set(folderOf(path), (sizes.get(folderOf(path)) ?? 0) + 1);
  const shown = new Map<string, number>();
  const entries: RootPageEntry[] = [];
  for (const path of paths) {
    const folder = folderOf(path);
    const size = sizes.get(folder) ?? 0;
    const count = (shown.get(folder) ?? 0) + 1;
    shown.set(folder, count);
    if (folder === '/' || size <= FOLDER_FOLDED_OVER || count <= FOLDER_SHOWN)
      entries.push({ path, more: 0 });
    else if (count === FOLDER_SHOWN + 1) entries.push({ path: folder, more: size - FOLDER_SHOWN });
  }
  return entries;
}

/** Every regular file of the bundle, as a `/`-separated path relative to it. */
async function listBundleFiles(realDir: string): Promise<string[]> {
  const entries = await readdir(realDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(realDir.length + 1)
        .split('\\')
        .join('/'),
    );
}

/** Handlebars escapes every value; compiled on first use, so a model (a) preview never reads it. */
export function renderRootHtml(entries: readonly RootPageEntry[]): string {
  template ??= Handlebars.create().compile(
    readFileSync(join(TEMPLATES_DIR, 'preview', 'index.hbs'), 'utf8'),
    { strict: true },
  );
  return template({ note: ROOT_PAGE_NOTE, entries });
}

/** The Markdown twin. Paths are percent-encoded, so no backtick or `>` can end a span early. */
export function renderRootMarkdown(entries: readonly RootPageEntry[]): string {
  const items = entries.map(({ path, more }) =>
    more > 0
      ? `- … and ${more} more under \`${encodeURI(path)}\``
      : `- [\`${encodeURI(path)}\`](<${encodeURI(path)}>)`,
  );
  return ['# The documents this preview serves', '', ROOT_PAGE_NOTE, '', ...items, ''].join('\n');
}

export async function sendRootPage(
  req: Request,
  res: Response,
  realDir: string,
  rules: HostingRules,
  headers: HeaderList,
): Promise<void> {
  // The rules' headers for `/`, as the host adds them to the store's page there.
  for (const [name, value] of headers) res.setHeader(name, value);
  const entries = foldLargeFolders(servedPaths(await listBundleFiles(realDir), rules));
  const markdown = req.accepts(['text/html', 'text/markdown']) === 'text/markdown';
  const body = markdown ? renderRootMarkdown(entries) : renderRootHtml(entries);
  res.setHeader('Content-Type', markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8');
  res.setHeader('Vary', 'Accept').setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
