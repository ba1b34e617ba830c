/**
 * The lastmods of the last bundle's sitemap, handed on entry by entry as URL path and time
 * (seed-lastmods.ts keeps what it needs of them): the sitemap itself, or, when it is an
 * index, each `sitemap-<n>.xml` it lists, one file at a time, each whole or read back from
 * its parts. The protocol caps one sitemap at 52,428,800 bytes, so one is held at a time
 * and a larger file is not read. A lastmod is handed on only when the number it is kept
 * as reads back as its text (`lastmodTime`), the form the build cache dates products in.
 * What cannot be read (a missing file, a part that differs from its manifest, a manifest
 * that is not one) gives nothing; a whole file cut short gives at most the entries before
 * the cut, each as the last sitemap wrote it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SITEMAP_BYTES, parseSitemap, SITEMAP_FILE } from '../emit/sitemap.js';
import { lastmodTime, W3C_DATETIME } from '../emit/sitemap-entries.js';
import { readDocumentChunks } from '../publish/read-parted.js';

/** A sitemap part the index may name: `sitemap-<n>.xml` at the bundle's root, nothing else. */
const SITEMAP_PART = /^sitemap-\d+\.xml$/;

export type VisitLastmod = (path: string, time: number) => void;

/** A sitemap's text, whole or from its parts; undefined when it is missing, damaged or too large. */
async function readSitemapText(out: string, path: string): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of readDocumentChunks(out, path, { has: (file) => existsSync(join(out, file)) })) {
      length += chunk.length;
      if (length > MAX_SITEMAP_BYTES) return undefined;
      chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(text: string | undefined): ReturnType<typeof parseSitemap> {
  try {
    return text === undefined ? undefined : parseSitemap(text);
  } catch {
    return undefined;
  }
}

function visitEntries(entries: readonly Record<string, unknown>[], visit: VisitLastmod): void {
  for (const { loc, lastmod } of entries) {
    if (typeof loc !== 'string' || typeof lastmod !== 'string' || !W3C_DATETIME.test(lastmod)) continue;
    const time = lastmodTime(lastmod);
    // Not a URL (the last sitemap was not valid) or a time kept only as text: that entry seeds nothing.
    if (Number.isNaN(time) || !URL.canParse(loc)) continue;
    visit(new URL(loc).pathname, time);
  }
}

/** Each URL path and lastmod of the last sitemap, the parts of a sitemap index included. */
export async function visitSitemapLastmods(out: string, visit: VisitLastmod): Promise<void> {
  const root = parsed(await readSitemapText(out, SITEMAP_FILE));
  if (root?.kind === 'urlset') visitEntries(root.entries, visit);
  if (root?.kind !== 'sitemapindex') return;
  for (const { loc } of root.entries) {
    const part = typeof loc === 'string' && URL.canParse(loc) ? new URL(loc).pathname.slice(1) : '';
    if (!SITEMAP_PART.test(part)) continue;
    const child = parsed(await readSitemapText(out, part));
    if (child?.kind === 'urlset') visitEntries(child.entries, visit);
  }
}
