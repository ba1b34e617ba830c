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
import { type DocumentReader, readOnce } from '../validate/parse-once.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
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

function listEntries(plan: BuildPlan): SitemapEntry[] {
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
  const entries: SitemapEntry[] = documents.map((path) => ({
    loc: siteUrl(config, path),
    lastmod: generated,
  }));
  for (const product of sitemapProductsOf(plan.products)) {
    const lastmod = product.lastmod ?? generated;
    // The product's Markdown page is on this host in both models.
    entries.push({ loc: siteUrl(config, productMarkdownPath(product.slug)), lastmod });
    const loc = requireAbsoluteUrl(product.url, { product: product.slug, field: 'url' });
    if (new URL(loc).origin !== origin) continue;
    entries.push({ loc, lastmod });
  }
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.loc) && seen.add(entry.loc) !== undefined);
}

interface SerialisedSitemap {
  body: string;
  tree: Record<string, unknown>;
}

function buildUrlset(entries: readonly SitemapEntry[]): SerialisedSitemap {
  const tree = { urlset: { '@_xmlns': SITEMAP_NAMESPACE, url: entries } };
  return { body: buildXmlDocument(tree), tree };
}

function sitemapArtifact(path: string, sitemap: SerialisedSitemap): Artifact {
  const { body, tree } = sitemap;
  return { path, mediaType: SITEMAP_MEDIA_TYPE, body, serialisedFrom: { body, value: tree } };
}

/** Splits entries into files under both limits: by count first, then halving any file still too large. */
function splitEntries(entries: readonly SitemapEntry[]): SerialisedSitemap[] {
  const chunks: SitemapEntry[][] = [];
  for (let start = 0; start < entries.length; start += MAX_SITEMAP_URLS) {
    chunks.push(entries.slice(start, start + MAX_SITEMAP_URLS));
  }
  const sitemaps: SerialisedSitemap[] = [];
  const pending = chunks.reverse();
  for (let chunk = pending.pop(); chunk !== undefined; chunk = pending.pop()) {
    const sitemap = buildUrlset(chunk);
    if (Buffer.byteLength(sitemap.body) <= MAX_SITEMAP_BYTES || chunk.length === 1) {
      sitemaps.push(sitemap);
      continue;
    }
    const half = Math.ceil(chunk.length / 2);
    pending.push(chunk.slice(half), chunk.slice(0, half));
  }
  return sitemaps;
}

export function emitSitemap(plan: BuildPlan): Artifact[] {
  const entries = listEntries(plan);
  const sitemaps = splitEntries(entries);
  if (sitemaps.length <= 1) return [sitemapArtifact(SITEMAP_FILE, sitemaps[0] ?? buildUrlset(entries))];
  const parts = sitemaps.map((sitemap, index) => sitemapArtifact(`sitemap-${index + 1}.xml`, sitemap));
  const tree = {
    sitemapindex: {
      '@_xmlns': SITEMAP_NAMESPACE,
      sitemap: parts.map((part) => ({ loc: siteUrl(plan.config, `/${part.path}`), lastmod: plan.generated })),
    },
  };
  return [sitemapArtifact(SITEMAP_FILE, { body: buildXmlDocument(tree), tree }), ...parts];
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
  const reading = readSitemap(files, path);
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
