/**
 * Reads a live site into the gate's input. It fetches every public URL the contract
 * names (the catalog's own path is found from the API catalog's anchor), checks what
 * only a live site can show (status, Content-Type, open CORS, the catalog's cache and
 * `Link` headers, HEAD on the API catalog, a real 404 for unknown paths, and the RFC
 * 9728 resource being the URL it was fetched from), and files each body under the
 * bundle path it is published from, so the same checkers run on it as on a directory.
 * Requests are sequential, well under the 60 a minute the merchant asks for.
 */

import { decodeBundleFile } from '../bundle-file-encoding.js';
import { SKILLS_INDEX_FILE } from '../emit/agent-skills.js';
import { AI_CATALOG_FILE } from '../emit/ai-catalog.js';
import { SERVER_CARD_MEDIA_TYPE } from '../emit/mcp-server-card.js';
import { readSitemap, SITEMAP_FILE } from '../emit/sitemap.js';
import { UCP_PROFILE } from '../emit/well-known-ucp.js';
import { CatalogError } from '../errors.js';
import {
  API_CATALOG_FILE,
  isRecord,
  PROTECTED_RESOURCE_FILE,
  readJson,
  stringField,
} from '../validate/bundle-layout.js';
import { findCatalogContext } from '../validate/linkset.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { type DocumentSource, readAgentFeeds } from './read-agent-feeds.js';
import { expectedMediaType, mediaTypeMatches, SITE_DOCUMENTS, type SiteDocument } from './site-documents.js';
import { describeFetchFailure, unreachableHint } from './unreachable.js';

export interface ReadSiteOptions {
  /** Time allowed for each request, body included. */
  timeoutMs?: number;
  /**
   * The site_url the bundle was built for, when it is served elsewhere (`check <url> --as
   * <site_url>`, e.g. a production bundle under `npm run preview`): requests go to the
   * target, and the documents are judged as if fetched from this URL.
   */
  as?: string;
}

export interface SiteRead {
  files: BundleFiles;
  problems: Problem[];
}

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_CHILD_SITEMAPS = 50;

interface Fetched {
  status: number;
  headers: Headers;
  body: string;
}

class SiteReader implements DocumentSource {
  readonly files = new Map<string, string>();
  readonly problems: Problem[] = [];
  /** Whether the target has answered once; until then a failed request means nothing listens. */
  private answered = false;

  constructor(
    readonly siteUrl: string,
    private readonly timeoutMs: number,
    /** Where requests go: the site itself, or the server standing in for it (`--as`). */
    private readonly fetchBase: string = siteUrl,
  ) {}

  async request(path: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Fetched | undefined> {
    const url = `${this.fetchBase}${path}`;
    try {
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: { origin: 'https://agent.example', accept: '*/*' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      this.answered = true;
      // Bodies are read as bytes: a `.gz` feed shard is gunzipped into the text the gate reads.
      const body = method === 'HEAD' ? '' : decodeBundleFile(path, Buffer.from(await response.arrayBuffer()));
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (!this.answered) throw unreachableError(this.fetchBase, error);
      const reason = error instanceof Error ? error.message : String(error);
      this.problems.push({
        path: path.slice(1) || '/',
        rule: 'unreachable',
        message: `${method} ${url} failed: ${reason}`,
      });
      return undefined;
    }
  }

  /** Fetches one document, reports what is wrong with the response, and files its body. */
  async read(document: SiteDocument): Promise<string | undefined> {
    const fetched = await this.request(document.urlPath);
    if (fetched === undefined) return undefined;
    const report = (rule: string, message: string) =>
      this.problems.push({ path: document.file, rule, message: `${document.urlPath}: ${message}` });
    if (fetched.status !== 200) {
      report('status', `status ${fetched.status}, expected 200`);
      return undefined;
    }
    const contentType = fetched.headers.get('content-type') ?? '';
    const expected = expectedMediaType(document.file);
    if (!mediaTypeMatches(contentType, expected)) {
      report('content-type', `Content-Type is "${contentType}", expected ${expected}`);
    }
    // Spec 1.4: "CORS is open to every origin."
    if (fetched.headers.get('access-control-allow-origin') !== '*') {
      report('cors', 'Access-Control-Allow-Origin is not *');
    }
    this.files.set(document.file, fetched.body);
    return fetched.body;
  }
}

/**
 * The site did not answer its first request: one problem, said once, with its cause and a
 * hint, instead of the same `fetch failed` for every document (exit 1, as any failure).
 */
function unreachableError(target: string, error: unknown): CatalogError {
  const cause = describeFetchFailure(error);
  const message = `cannot reach ${target}: ${cause}; ${unreachableHint(target)}`;
  return new CatalogError('SITE_UNREACHABLE', message, { url: target, cause });
}

// The documents are parsed through the gate's parse-once readers, so the gate that runs
// on these files next reuses what was parsed here instead of parsing it again.
function catalogPathFrom(files: BundleFiles, siteUrl: string): string {
  const anchor = findCatalogContext(readJson(files, API_CATALOG_FILE))?.anchor;
  // The catalog lives under {base_url}, which shares the site's origin and path.
  if (typeof anchor === 'string' && anchor.startsWith(`${siteUrl}/`)) return anchor.slice(siteUrl.length);
  return '/agent-catalog';
}

async function checkCatalogHeaders(reader: SiteReader, catalogPath: string): Promise<void> {
  const fetched = await reader.request(catalogPath, 'HEAD');
  if (fetched === undefined) return;
  const file = `${catalogPath.slice(1)}.json`;
  const report = (rule: string, message: string) => reader.problems.push({ path: file, rule, message });
  if (!/max-age=900\b/.test(fetched.headers.get('cache-control') ?? '')) {
    report('cache', `${catalogPath}: Cache-Control lacks max-age=900 (spec 4: cached for 15 minutes)`);
  }
  if (!/rel="?api-catalog"?/.test(fetched.headers.get('link') ?? '')) {
    report('link', `${catalogPath}: no Link header with rel="api-catalog" (RFC 9727 §3)`);
  }
}

async function checkApiCatalogHead(reader: SiteReader): Promise<void> {
  const fetched = await reader.request('/.well-known/api-catalog', 'HEAD');
  if (fetched !== undefined && fetched.status !== 200) {
    reader.problems.push({
      path: '.well-known/api-catalog.json',
      rule: 'status',
      message: `HEAD /.well-known/api-catalog answered ${fetched.status} (RFC 9727 §2 asks for HEAD support)`,
    });
  }
}

async function checkUnknownPathsAre404(reader: SiteReader): Promise<void> {
  for (const path of ['/.well-known/agent-catalog-check-unknown', '/agent-catalog-check-unknown/page']) {
    const fetched = await reader.request(path);
    if (fetched !== undefined && fetched.status !== 404) {
      reader.problems.push({
        path: '_redirects',
        rule: 'catch-all',
        message: `${path} answered ${fetched.status}; an unknown path must be a real 404 (no catch-all route)`,
      });
    }
  }
}

function checkResourceIdentifier(reader: SiteReader): void {
  const file = PROTECTED_RESOURCE_FILE;
  const document = readJson(reader.files, file);
  const resource = isRecord(document) ? document.resource : undefined;
  // RFC 9728 §3.3: the resource "MUST be identical to the protected resource's resource
  // identifier value into which the well-known URI path suffix was inserted".
  if (resource !== undefined && resource !== reader.siteUrl) {
    reader.problems.push({
      path: file,
      rule: 'rfc9728',
      message: `resource is ${JSON.stringify(resource)} but the document was fetched for ${reader.siteUrl}; if this server stands in for the site (e.g. npm run preview of a production bundle), add --as ${JSON.stringify(resource)}`,
    });
  }
}

/** Fetches the sitemaps a sitemap index lists, read with the sitemap module's own XML parser. */
async function readChildSitemaps(reader: SiteReader): Promise<void> {
  const reading = readSitemap(reader.files, SITEMAP_FILE);
  if (!reading?.ok || reading.sitemap?.kind !== 'sitemapindex') return;
  const locs = reading.sitemap.entries.map((entry) => stringField(entry, 'loc') ?? '');
  for (const loc of locs.slice(0, MAX_CHILD_SITEMAPS)) {
    if (!URL.canParse(loc) || new URL(loc).origin !== new URL(reader.siteUrl).origin) continue;
    const urlPath = new URL(loc).pathname;
    await reader.read({ urlPath, file: urlPath.slice(1) });
  }
}

/**
 * The documents the discovery documents point at: each skill of the agent skills index
 * and the MCP server card the AI catalog lists (under `{base_url}`), so the gate can check
 * digests and the card's schema on a live site as on a directory.
 */
async function readDiscoveryTargets(reader: SiteReader): Promise<void> {
  const index = readJson(reader.files, SKILLS_INDEX_FILE);
  const skills = isRecord(index) && Array.isArray(index.skills) ? index.skills : [];
  const catalog = readJson(reader.files, AI_CATALOG_FILE);
  const entries = isRecord(catalog) && Array.isArray(catalog.entries) ? catalog.entries : [];
  const urls = [
    ...skills.map((skill) => stringField(skill, 'url')),
    ...entries
      .filter((entry) => stringField(entry, 'type') === SERVER_CARD_MEDIA_TYPE)
      .map((entry) => stringField(entry, 'url')),
  ];
  for (const url of urls.slice(0, MAX_CHILD_SITEMAPS)) {
    if (url === undefined) continue;
    const absolute = URL.canParse(url, reader.siteUrl) ? new URL(url, reader.siteUrl) : undefined;
    if (absolute === undefined || absolute.origin !== new URL(reader.siteUrl).origin) continue;
    const urlPath = absolute.pathname;
    const file = urlPath.endsWith('.md') ? urlPath.slice(1) : `${urlPath.slice(1)}.json`;
    await reader.read({ urlPath, file });
  }
}

/** `https://shop.example/` → `https://shop.example`: the identifier the documents use. */
export function normaliseSiteUrl(target: string, flag?: string): string {
  // A target that does not parse is the caller's mistake (exit 2), like a wrong scheme.
  const url = URL.canParse(target) ? new URL(target) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const what = flag === undefined ? target : `${flag} ${target}`;
    throw new CatalogError('FLAG_INVALID', `${what} is not an http(s) URL`, { url: target });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export async function readBundleSite(target: string, options: ReadSiteOptions = {}): Promise<SiteRead> {
  const fetchBase = normaliseSiteUrl(target);
  const siteUrl = options.as === undefined ? fetchBase : normaliseSiteUrl(options.as, '--as');
  const reader = new SiteReader(siteUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetchBase);
  for (const document of SITE_DOCUMENTS) await reader.read(document);
  const catalogPath = catalogPathFrom(reader.files, reader.siteUrl);
  await reader.read({ urlPath: catalogPath, file: `${catalogPath.slice(1)}.json` });
  await reader.read({ urlPath: `${catalogPath}/health`, file: `${catalogPath.slice(1)}/health.json` });
  // The MCP endpoint's metadata sits at {site_url}/.well-known/oauth-protected-resource{base path}/mcp.
  // Only a site whose llms.txt advertises the MCP endpoint (the live surface on) has it.
  const basePath = catalogPath.replace(/\/agent-catalog$/, '');
  if ((reader.files.get('llms.txt') ?? '').includes(`${reader.siteUrl}${basePath}/mcp`)) {
    const mcpMetadata = `/.well-known/oauth-protected-resource${basePath}/mcp`;
    await reader.read({ urlPath: mcpMetadata, file: `${mcpMetadata.slice(1)}.json` });
  }
  const kb = /\/kb\/[a-z0-9-]+-knowledge-base\.md/.exec(reader.files.get('llms.txt') ?? '')?.[0];
  if (kb !== undefined) await reader.read({ urlPath: kb, file: kb.slice(1) });
  // The UCP profile exists only with the live surface on, and llms.txt then links it.
  if ((reader.files.get('llms.txt') ?? '').includes(`](${reader.siteUrl}${UCP_PROFILE.publicPath})`)) {
    await reader.read({ urlPath: UCP_PROFILE.publicPath, file: UCP_PROFILE.path });
  }
  await readChildSitemaps(reader);
  await readDiscoveryTargets(reader);
  await readAgentFeeds(reader);
  await checkCatalogHeaders(reader, catalogPath);
  await checkApiCatalogHead(reader);
  await checkUnknownPathsAre404(reader);
  checkResourceIdentifier(reader);
  return { files: reader.files, problems: reader.problems };
}
