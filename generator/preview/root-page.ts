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
export function renderRootHtml(paths: readonly string[]): string {
  template ??= Handlebars.create().compile(
    readFileSync(join(TEMPLATES_DIR, 'preview', 'index.hbs'), 'utf8'),
    { strict: true },
  );
  return template({ note: ROOT_PAGE_NOTE, paths });
}

/** The Markdown twin. Paths are percent-encoded, so no backtick or `>` can end a span early. */
export function renderRootMarkdown(paths: readonly string[]): string {
  const items = paths.map((path) => `- [\`${encodeURI(path)}\`](<${encodeURI(path)}>)`);
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
  const paths = servedPaths(await listBundleFiles(realDir), rules);
  const markdown = req.accepts(['text/html', 'text/markdown']) === 'text/markdown';
  const body = markdown ? renderRootMarkdown(paths) : renderRootHtml(paths);
  res.setHeader('Content-Type', markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8');
  res.setHeader('Vary', 'Accept').setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
