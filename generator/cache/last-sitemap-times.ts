/**
 * The lastmods of the last bundle's sitemap, handed on entry by entry as URL path and time
 * (seed-lastmods.ts keeps what it needs of them): the sitemap itself, or, when it is an
 * index, each `sitemap-<n>.xml` it lists, one file at a time, each whole or read back from
 * its parts. The protocol caps one sitemap at 52,428,800 bytes, so one file's bytes are
 * held at a time and a larger file is not read; its `<url>` elements are cut out as the
 * feed's items are (`xml-cut.ts`) and parsed a few hundred at a time, because the tree of a
 * 50,000-URL part parsed whole took 64 to 96 MB of heap. A lastmod is handed on only when
 * the number it is kept as reads back as its text (`lastmodTime`), the form the build
 * cache dates products in. What cannot be read (a missing file, a part that differs from
 * its manifest, a manifest that is not one) gives nothing; a file cut short gives at most
 * the entries before the cut, each as the last sitemap wrote it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SITEMAP_BYTES, parseSitemap, SITEMAP_FILE } from '../emit/sitemap.js';
import { lastmodTime, W3C_DATETIME } from '../emit/sitemap-entries.js';
import { readDocumentChunks } from '../publish/read-parted.js';
import { decodedPieces } from '../validate/text-lines.js';
import { XmlCutter } from '../validate/xml-cut.js';

/** A sitemap part the index may name: `sitemap-<n>.xml` at the bundle's root, nothing else. */
const SITEMAP_PART = /^sitemap-\d+\.xml$/;
/** `<url>` elements parsed per call: a call's own cost is most of one element's, a batch's tree is small. */
const URLS_PER_PARSE = 256;

export type VisitLastmod = (path: string, time: number) => void;

/** A sitemap's bytes, whole or from its parts; undefined when it is missing, damaged or too large. */
async function readSitemapBytes(out: string, path: string): Promise<Buffer[] | undefined> {
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
  return chunks;
}

function parsed(text: string): ReturnType<typeof parseSitemap> {
  try {
    return parseSitemap(text);
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

function visitBatch(batch: readonly string[], visit: VisitLastmod): void {
  const urls = batch.length === 0 ? undefined : parsed(`<urlset>${batch.join('')}</urlset>`);
  if (urls?.kind === 'urlset') visitEntries(urls.entries, visit);
}

/** Visits a urlset's entries; gives the entries of a sitemap index, which holds none. */
function visitSitemap(chunks: readonly Buffer[], visit: VisitLastmod): Record<string, unknown>[] {
  const cutter = new XmlCutter(['urlset', 'url']);
  let batch: string[] = [];
  for (const { text } of cutter.elements(decodedPieces(chunks))) {
    batch.push(text);
    if (batch.length < URLS_PER_PARSE) continue;
    visitBatch(batch, visit);
    batch = [];
  }
  visitBatch(batch, visit);
  const frame = parsed(cutter.frame);
  return frame?.kind === 'sitemapindex' ? frame.entries : [];
}

/** Each URL path and lastmod of the last sitemap, the parts of a sitemap index included. */
export async function visitSitemapLastmods(out: string, visit: VisitLastmod): Promise<void> {
  const root = await readSitemapBytes(out, SITEMAP_FILE);
  const index = root === undefined ? [] : visitSitemap(root, visit);
  for (const { loc } of index) {
    const part = typeof loc === 'string' && URL.canParse(loc) ? new URL(loc).pathname.slice(1) : '';
    if (!SITEMAP_PART.test(part)) continue;
    const bytes = await readSitemapBytes(out, part);
    // A part that is itself an index is not followed: an index may not list one.
    if (bytes !== undefined) visitSitemap(bytes, visit);
  }
}
