/**
 * `/sitemap.xml` per the Sitemaps protocol 0.9 (https://www.sitemaps.org/protocol.html):
 * the product pages and the public pages and documents (the landing page `/` too in model
 * (a), where the bundle has its own host), absolute URLs with `lastmod`. The protocol
 * caps one file at 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed; past either,
 * the URLs go to `/sitemap-1.xml`, `/sitemap-2.xml`, … and `/sitemap.xml` becomes the
 * sitemap index. A sitemap may only list URLs of its own host, so product pages hosted
 * on another origin than `site_url` are left out (the catalog still links them).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';
import { isRecord } from '../validate/bundle-layout.js';
import { digestOf } from '../validate/digests.js';
import { type DocumentReader, readOnce, readUnkept } from '../validate/parse-once.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { SeenDigests } from '../validate/seen-digests.js';
import { hasOwnHost, LANDING_PUBLIC_PATH } from './landing.js';
import { sitemapProductsOf, W3C_DATETIME } from './sitemap-entries.js';
import {
  API_DOCS_MARKDOWN_PATH,
  API_DOCS_PATH,
  filePathOf,
  KB_PRODUCTS_PATH,
  knowledgeBasePath,
  LANDING_MARKDOWN_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  productMarkdownPath,
  SITEMAP_PATH,
  siteUrl,
} from './sitemap-pages.js';
import { buildXmlDocument, hasIllegalXmlChars, isAbsoluteUrl, requireAbsoluteUrl } from './xml-text.js';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const SITEMAP_FILE = filePathOf(SITEMAP_PATH);
export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 52_428_800;
const SITEMAP_MEDIA_TYPE = 'application/xml';

interface SitemapEntry {
  loc: string;
  lastmod: string;
}

/** The sitemap's URLs in order, a repeated one each time it comes: the documents, then each product's pages. */
function* allEntries(plan: BuildPlan): Generator<SitemapEntry> {
  const { config, generated } = plan;
  const origin = new URL(config.site_url).origin;
  const documents = [
    API_DOCS_PATH,
    API_DOCS_MARKDOWN_PATH,
    KB_PRODUCTS_PATH,
    knowledgeBasePath(config),
    LLMS_PATH,
    LLMS_FULL_PATH,
  ];
  // Model (a): the landing page is the host's home page, a page for people like /api/.
  if (hasOwnHost(config)) documents.unshift(LANDING_PUBLIC_PATH, LANDING_MARKDOWN_PATH);
  for (const path of documents) yield { loc: siteUrl(config, path), lastmod: generated };
  // `uniqueEntries` goes through these twice: from the column taken as the products were
  // kept (sitemap-entries.ts), neither time parses a product.
  for (const product of sitemapProductsOf(plan.products)) {
    const lastmod = product.lastmod ?? generated;
    // The product's Markdown page is on this host in both models.
    yield { loc: siteUrl(config, productMarkdownPath(product.slug)), lastmod };
    const loc = requireAbsoluteUrl(product.url, { product: product.slug, field: 'url' });
    if (new URL(loc).origin !== origin) continue;
    yield { loc, lastmod };
  }
}

/**
 * Each URL once, where it first comes, without a set of every URL (two million strings at
 * 1,000,000 products): a first walk keeps each URL's 8-byte digest and notes the digests met
 * twice; the second walk yields every URL whose digest was met once, and keeps the texts of
 * the others only, so a repeat is confirmed against the real URL and a collision of digests
 * drops nothing.
 */
function* uniqueEntries(plan: BuildPlan): Generator<SitemapEntry> {
  const seen = new SeenDigests();
  const repeated = new Set<bigint>();
  for (const { loc } of allEntries(plan)) {
    const digest = digestOf(loc);
    if (seen.add(digest)) repeated.add(digest);
  }
  const met = new Map<bigint, string[]>();
  for (const entry of allEntries(plan)) {
    const digest = repeated.size === 0 ? 0n : digestOf(entry.loc);
    if (!repeated.has(digest)) {
      yield entry;
      continue;
    }
    const texts = met.get(digest) ?? [];
    if (texts.includes(entry.loc)) continue;
    texts.push(entry.loc);
    met.set(digest, texts);
    yield entry;
  }
}

function buildUrlset(entries: readonly SitemapEntry[]): string {
  return buildXmlDocument({ urlset: { '@_xmlns': SITEMAP_NAMESPACE, url: entries } });
}

function sitemapArtifact(path: string, body: string, tree?: Record<string, unknown>): Artifact {
  return {
    path,
    mediaType: SITEMAP_MEDIA_TYPE,
    body,
    ...(tree !== undefined ? { serialisedFrom: { body, value: tree } } : {}),
  };
}

/** One run of URLs as sitemap bodies under the byte limit: whole, or halved until each half fits. */
function* bodiesOf(entries: readonly SitemapEntry[]): Generator<string> {
  const body = buildUrlset(entries);
  if (Buffer.byteLength(body) <= MAX_SITEMAP_BYTES || entries.length === 1) {
    yield body;
    return;
  }
  const half = Math.ceil(entries.length / 2);
  yield* bodiesOf(entries.slice(0, half));
  yield* bodiesOf(entries.slice(half));
}

/** The URLs in runs of at most `MAX_SITEMAP_URLS`, one run at a time. */
function* runsOf(entries: Iterable<SitemapEntry>): Generator<SitemapEntry[]> {
  let run: SitemapEntry[] = [];
  for (const entry of entries) {
    run.push(entry);
    if (run.length === MAX_SITEMAP_URLS) {
      yield run;
      run = [];
    }
  }
  if (run.length > 0) yield run;
}

/**
 * `/sitemap.xml` alone when every URL fits in it, else `/sitemap-<n>.xml` one at a time as
 * each run is made and `/sitemap.xml` as their index last: at 1,000,000 products there are
 * 41 of them, and holding them all (their entries, bodies and trees) until the gate raised
 * the build's peak by a gigabyte. A part carries no tree for the gate: the gate reads it from
 * its file, one part at a time; only a sitemap small enough to be one file keeps its tree.
 */
export function* emitSitemap(plan: BuildPlan): Generator<Artifact> {
  const runs = runsOf(uniqueEntries(plan));
  const first = runs.next();
  const firstRun = first.done === true ? [] : first.value;
  const second = runs.next();
  if (second.done === true) {
    const bodies = [...bodiesOf(firstRun)];
    const [only] = bodies;
    if (bodies.length === 1 && only !== undefined) {
      yield sitemapArtifact(SITEMAP_FILE, only, { urlset: { '@_xmlns': SITEMAP_NAMESPACE, url: firstRun } });
      return;
    }
  }
  let parts = 0;
  const emitRun = function* (run: readonly SitemapEntry[]): Generator<Artifact> {
    for (const body of bodiesOf(run)) {
      parts += 1;
      yield sitemapArtifact(`sitemap-${parts}.xml`, body);
    }
  };
  yield* emitRun(firstRun);
  if (second.done !== true) {
    yield* emitRun(second.value);
    for (const run of runs) yield* emitRun(run);
  }
  const sitemap = Array.from({ length: parts }, (_, index) => ({
    loc: siteUrl(plan.config, `/sitemap-${index + 1}.xml`),
    lastmod: plan.generated,
  }));
  const tree = { sitemapindex: { '@_xmlns': SITEMAP_NAMESPACE, sitemap } };
  yield sitemapArtifact(SITEMAP_FILE, buildXmlDocument(tree), tree);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  htmlEntities: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex';
  namespace: unknown;
  entries: Record<string, unknown>[];
}

/** Reads a sitemap or sitemap index; the consistency checks read product URLs through this too. */
export function parseSitemap(body: string): ParsedSitemap | undefined {
  return sitemapOfTree(parser.parse(body));
}

function sitemapOfTree(tree: unknown): ParsedSitemap | undefined {
  if (!isRecord(tree)) return undefined;
  for (const kind of ['urlset', 'sitemapindex'] as const) {
    const root = tree[kind];
    if (root === undefined) continue;
    const list = isRecord(root) ? root[kind === 'urlset' ? 'url' : 'sitemap'] : undefined;
    return {
      kind,
      namespace: isRecord(root) ? root['@_xmlns'] : undefined,
      entries: Array.isArray(list) ? list.filter(isRecord) : [],
    };
  }
  return undefined;
}

type SitemapReading =
  | { ok: true; sitemap: ParsedSitemap | undefined }
  | { ok: false; rule: string; message: string };

function readSitemapText(body: string): SitemapReading {
  const validation = XMLValidator.validate(body);
  if (validation !== true) return { ok: false, rule: 'xml', message: validation.err.msg };
  if (hasIllegalXmlChars(body)) {
    return { ok: false, rule: 'sitemap', message: 'characters XML 1.0 does not allow' };
  }
  return { ok: true, sitemap: parseSitemap(body) };
}

/**
 * A sitemap checked for well-formedness and parsed, once per bundle (the consistency
 * check reads its URLs too). One this build serialised is read from the tree XMLBuilder
 * wrote it from, as the feed is (see `FEED_READER` in feed.ts for why that is sound).
 */
const SITEMAP_READER: DocumentReader<SitemapReading> = {
  name: 'sitemap',
  parse: readSitemapText,
  fromSerialised: (tree) => ({ ok: true, sitemap: sitemapOfTree(tree) }),
};

/** Undefined when the bundle has no file at `path`. */
export function readSitemap(files: BundleFiles, path: string): SitemapReading | undefined {
  return readOnce(files, path, SITEMAP_READER);
}

function checkOneSitemap(
  files: BundleFiles,
  path: string,
  allowIndex: boolean,
): { problems: Problem[]; children: string[] } {
  const problem = (message: string): Problem => ({ path, rule: 'sitemap', message });
  // A part of an index is read once, here, and let go: kept, the parts' entries (two million
  // at 1,000,000 products) would stay with the bundle until the gate ends.
  const reading = allowIndex ? readSitemap(files, path) : readUnkept(files, path, SITEMAP_READER);
  if (reading === undefined) return { problems: [problem('the sitemap is missing')], children: [] };
  if (!reading.ok)
    return { problems: [{ path, rule: reading.rule, message: reading.message }], children: [] };
  const parsed = reading.sitemap;
  if (parsed === undefined)
    return { problems: [problem('root is neither <urlset> nor <sitemapindex>')], children: [] };
  const problems: Problem[] = [];
  if (parsed.namespace !== SITEMAP_NAMESPACE) problems.push(problem(`namespace is not ${SITEMAP_NAMESPACE}`));
  if (parsed.kind === 'sitemapindex' && !allowIndex)
    problems.push(problem('a sitemap index may not list an index'));
  if (parsed.entries.length > MAX_SITEMAP_URLS)
    problems.push(problem(`more than ${MAX_SITEMAP_URLS} entries`));
  if (Buffer.byteLength(files.get(path) ?? '') > MAX_SITEMAP_BYTES)
    problems.push(problem(`larger than ${MAX_SITEMAP_BYTES} bytes`));
  const children: string[] = [];
  parsed.entries.forEach((entry, index) => {
    const loc = typeof entry.loc === 'string' ? entry.loc : '';
    if (!isAbsoluteUrl(loc))
      problems.push(problem(`entry ${index + 1}: loc "${loc}" is not an absolute URL`));
    const lastmod = entry.lastmod;
    if (lastmod !== undefined && (typeof lastmod !== 'string' || !W3C_DATETIME.test(lastmod))) {
      problems.push(problem(`entry ${index + 1}: lastmod is not a W3C datetime`));
    }
    if (parsed.kind === 'sitemapindex' && isAbsoluteUrl(loc)) children.push(new URL(loc).pathname.slice(1));
  });
  return { problems, children };
}

export function checkSitemap(files: BundleFiles): Problem[] {
  if (!files.has(SITEMAP_FILE)) {
    return [{ path: SITEMAP_FILE, rule: 'missing', message: 'the sitemap is missing' }];
  }
  const { problems, children } = checkOneSitemap(files, SITEMAP_FILE, true);
  for (const child of children) {
    if (!files.has(child)) {
      problems.push({
        path: SITEMAP_FILE,
        rule: 'sitemap',
        message: `lists ${child}, which is not in the bundle`,
      });
      continue;
    }
    problems.push(...checkOneSitemap(files, child, false).problems);
  }
  return problems;
}
