/**
 * Where the gate finds each document in a bundle, and each JSON document parsed once.
 * The checkers receive only the bundle's files, so the layout is read from the bundle
 * itself: the base URL from the API description's `servers`, the site URL from the
 * protected resource metadata, the catalog and health files from the base URL's path.
 * JSON is read once per bundle (`parse-once.ts`), and not at all for a document the build
 * serialised itself, because several checkers read the same 50,000-product catalog.
 */
import { API_DOCS_PATH, filePathOf, KB_PRODUCTS_PATH, OPENAPI_PATH } from '../emit/sitemap-pages.js';
import { type DocumentReader, readOnce } from './parse-once.js';
import type { BundleFiles } from './problem.js';

export const OPENAPI_FILE = filePathOf(OPENAPI_PATH);
export const DOCS_FILE = filePathOf(API_DOCS_PATH);
export const KB_PRODUCTS_FILE = filePathOf(KB_PRODUCTS_PATH);
export const PROTECTED_RESOURCE_FILE = '.well-known/oauth-protected-resource.json';
export const AUTHORIZATION_SERVER_FILE = '.well-known/oauth-authorization-server.json';
export const OPENID_CONFIGURATION_FILE = '.well-known/openid-configuration.json';
export const API_CATALOG_FILE = '.well-known/api-catalog.json';
export const AGENT_FILE = '.well-known/agent.json';
export const AGENT_CARD_FILE = '.well-known/agent-card.json';

type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

const JSON_READER: DocumentReader<ParsedJson> = {
  name: 'json',
  parse(body) {
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  },
  fromSerialised: (value) => ({ ok: true, value }),
};

/** The file parsed as JSON (cached per bundle), or undefined when it is missing or not JSON. */
export function readJson(files: BundleFiles, path: string): unknown {
  const parsed = parseJson(files, path);
  return parsed?.ok ? parsed.value : undefined;
}

export function parseJson(files: BundleFiles, path: string): ParsedJson | undefined {
  return readOnce(files, path, JSON_READER);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

export interface BundleLayout {
  /** `{base_url}` as the API description's first server says, when readable. */
  baseUrl?: string;
  /** `{site_url}` as the protected resource metadata says, when readable. */
  siteUrl?: string;
  catalogFile?: string;
  healthFile?: string;
}

function firstServerUrl(files: BundleFiles): string | undefined {
  const document = readJson(files, OPENAPI_FILE);
  const servers = isRecord(document) ? document.servers : undefined;
  return Array.isArray(servers) ? stringField(servers[0], 'url') : undefined;
}

function pathPrefix(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  return new URL(url).pathname.replace(/^\/+|\/+$/g, '');
}

/** The file of a catalog path (`agent-catalog` or `agent-catalog/health`) under the base path. */
function findFile(files: BundleFiles, prefix: string | undefined, name: string): string | undefined {
  const expected = prefix ? `${prefix}/${name}.json` : `${name}.json`;
  if (files.has(expected)) return expected;
  // The description may be missing or wrong (its own checker says so); find the file anyway.
  let best: string | undefined;
  for (const path of files.keys()) {
    if ((path === `${name}.json` || path.endsWith(`/${name}.json`)) && (!best || path.length < best.length)) {
      best = path;
    }
  }
  return best;
}

const layoutByBundle = new WeakMap<BundleFiles, BundleLayout>();

export function locateDocuments(files: BundleFiles): BundleLayout {
  const cached = layoutByBundle.get(files);
  if (cached) return cached;
  const baseUrl = firstServerUrl(files);
  const siteUrl = stringField(readJson(files, PROTECTED_RESOURCE_FILE), 'resource');
  const prefix = pathPrefix(baseUrl);
  const layout: BundleLayout = {
    ...(baseUrl ? { baseUrl } : {}),
    ...(siteUrl ? { siteUrl } : {}),
  };
  const catalogFile = findFile(files, prefix, 'agent-catalog');
  const healthFile = findFile(files, prefix, 'agent-catalog/health');
  if (catalogFile) layout.catalogFile = catalogFile;
  if (healthFile) layout.healthFile = healthFile;
  layoutByBundle.set(files, layout);
  return layout;
}
