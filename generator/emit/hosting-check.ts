/**
 * Checks a bundle's `_headers` and `_redirects` from the files alone: both parse; both
 * hosts accept every line (`host-limits.ts`); every rewrite lands on a file of the bundle; no rule is a catch-all or carries a
 * splat or placeholder (an unknown path must stay a real 404), except model (b)'s storefront
 * proxy as the last rule (`storefront-proxy.ts`) and the one header rule of each folder in
 * `folder-header-rules.ts` (a rule per file would pass the hosts' rule limit); no path is listed twice;
 * every header rule names a path that exists; every document has its Content-Type, open
 * CORS and `nosniff`; the catalog keeps the spec's 15-minute cache. A live site exposes
 * neither file, so a bundle with neither is not checked here.
 */
import { PARTS_INDEX_PATH, parsePartsIndex } from '../../live/bundle-parts.js';
import { isHostFilePath } from '../../live/shells/host-files.js';
import { isCatalogError } from '../errors.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { folderRulePathOf, isFolderRulePath } from './folder-header-rules.js';
import { checkHeaderLimits, checkRedirectLimits } from './host-limits.js';
import {
  HEADERS_FILE,
  type HeaderRule,
  parseHeadersFile,
  parseRedirectsFile,
  REDIRECTS_FILE,
  type RedirectRule,
} from './hosting-rules-format.js';
import { filePathOf } from './sitemap-pages.js';
import { isStorefrontProxy } from './storefront-proxy.js';

/** Spec part 4: getCatalog is "cached for 15 minutes". */
const CATALOG_MAX_AGE = 'max-age=900';
const WILDCARD = /[*]|\/:[A-Za-z]/;

/** The header rule that applies to a path: its exact rule, or its folder's rule (folder-header-rules.ts). */
function ruleFor(byPath: ReadonlyMap<string, HeaderRule>, path: string): HeaderRule | undefined {
  const exact = byPath.get(path);
  const folderRule = folderRulePathOf(path);
  if (exact !== undefined || folderRule === undefined) return exact;
  return byPath.get(folderRule);
}

function parseOrReport<T>(
  path: string,
  text: string,
  parse: (text: string) => T[],
  problems: Problem[],
): T[] {
  try {
    return parse(text);
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    problems.push({ path, rule: 'hosting', message: error.message });
    return [];
  }
}

function isPublicDocument(path: string): boolean {
  return !path.startsWith('_') && !isHostFilePath(`/${path}`);
}

function checkRedirects(rules: readonly RedirectRule[], files: BundleFiles): string[] {
  const faults: string[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, index) => {
    const label = `rule "${rule.from} ${rule.to} ${rule.status}${rule.force ? '!' : ''}"`;
    if (isStorefrontProxy(rule)) {
      // Model (b): first match wins, so the proxy must come after every rewrite it would swallow.
      if (index !== rules.length - 1) faults.push(`${label}: the storefront proxy must be the last rule`);
      return;
    }
    if (WILDCARD.test(rule.from) || rule.from === '/')
      faults.push(`${label} is a catch-all or pattern route`);
    if (seen.has(rule.from)) faults.push(`${label}: ${rule.from} is routed twice`);
    seen.add(rule.from);
    if (rule.status !== 200) return;
    if (!rule.to.startsWith('/') || !files.has(filePathOf(rule.to))) {
      faults.push(`${label}: the target is not a file of the bundle`);
    }
  });
  return faults;
}

function headerValue(rule: HeaderRule | undefined, name: string): string[] {
  const lower = name.toLowerCase();
  return (rule?.headers ?? []).filter(([key]) => key.toLowerCase() === lower).map(([, value]) => value);
}

/** Each document, by file path and by rewritten path, has one Content-Type, open CORS and nosniff. */
function checkServedHeaders(
  byPath: ReadonlyMap<string, HeaderRule>,
  allRedirects: readonly RedirectRule[],
  files: BundleFiles,
  parted: readonly string[],
): string[] {
  // The storefront proxy serves the store's pages, whose headers are the store's own.
  const redirects = allRedirects.filter((rule) => !isStorefrontProxy(rule));
  const faults: string[] = [];
  // A parted document's URLs carry the same rules: the handler sends what they say.
  const served = [
    ...new Set([
      ...[...files.keys()].filter(isPublicDocument).map((path) => `/${path}`),
      ...redirects.filter((rule) => rule.status === 200).map((rule) => rule.from),
      ...parted,
    ]),
  ];
  for (const path of served) {
    const rule = ruleFor(byPath, path);
    if (headerValue(rule, 'Content-Type').length !== 1) faults.push(`"${path}" has no Content-Type header`);
    if (!headerValue(rule, 'Access-Control-Allow-Origin').includes('*')) {
      faults.push(`"${path}" lacks Access-Control-Allow-Origin: *`);
    }
    if (!headerValue(rule, 'X-Content-Type-Options').includes('nosniff'))
      faults.push(`"${path}" lacks nosniff`);
  }
  for (const redirect of redirects) {
    const types = [
      headerValue(byPath.get(redirect.from), 'Content-Type'),
      headerValue(byPath.get(redirect.to), 'Content-Type'),
    ];
    if (types[0]?.[0] !== types[1]?.[0])
      faults.push(`"${redirect.from}" and "${redirect.to}" differ in Content-Type`);
    if (/\/agent-catalog$/.test(redirect.from)) {
      const cache = headerValue(byPath.get(redirect.from), 'Cache-Control').join(', ');
      if (!cache.includes(CATALOG_MAX_AGE)) faults.push(`"${redirect.from}" is not cached for 15 minutes`);
    }
  }
  return faults;
}

/** The URL paths the live handler answers with a parted document (`_parts/index.json`). */
function partedPathsOf(files: BundleFiles): string[] {
  const text = files.get(PARTS_INDEX_PATH);
  return text === undefined ? [] : Object.keys(parsePartsIndex(text)?.documents ?? {});
}

function checkHeaderRules(
  rules: readonly HeaderRule[],
  redirects: readonly RedirectRule[],
  files: BundleFiles,
): string[] {
  const faults: string[] = [];
  const byPath = new Map<string, HeaderRule>();
  const parted = partedPathsOf(files);
  const routed = new Set([...redirects.map((rule) => rule.from), ...parted]);
  for (const rule of rules) {
    const folder = isFolderRulePath(rule.path);
    if (WILDCARD.test(rule.path) && !folder)
      faults.push(`headers for "${rule.path}": only exact paths are allowed`);
    if (!folder && folderRulePathOf(rule.path) !== undefined)
      faults.push(`headers for "${rule.path}" overlap its folder's rule: a host would send both`);
    if (byPath.has(rule.path)) faults.push(`headers for "${rule.path}" are listed twice`);
    byPath.set(rule.path, rule);
    const exists = folder
      ? [...files.keys()].some((file) => folderRulePathOf(`/${file}`) === rule.path)
      : rule.path === '/' || routed.has(rule.path) || files.has(filePathOf(rule.path));
    if (!exists) faults.push(`headers for "${rule.path}", which is neither a file nor a route`);
    if (headerValue(rule, 'Content-Type').length > 1)
      faults.push(`"${rule.path}" has two Content-Type headers`);
  }
  return [...faults, ...checkServedHeaders(byPath, redirects, files, parted)];
}

export function checkHostingRules(files: BundleFiles): Problem[] {
  const headersText = files.get(HEADERS_FILE);
  const redirectsText = files.get(REDIRECTS_FILE);
  if (headersText === undefined && redirectsText === undefined) return [];
  const problems: Problem[] = [];
  if (headersText === undefined) problems.push({ path: HEADERS_FILE, rule: 'missing', message: 'missing' });
  if (redirectsText === undefined)
    problems.push({ path: REDIRECTS_FILE, rule: 'missing', message: 'missing' });
  const redirects = parseOrReport(REDIRECTS_FILE, redirectsText ?? '', parseRedirectsFile, problems);
  const headers = parseOrReport(HEADERS_FILE, headersText ?? '', parseHeadersFile, problems);
  const isFile = (urlPath: string) => !urlPath.endsWith('/') && files.has(filePathOf(urlPath));
  problems.push(
    ...checkRedirectLimits(redirectsText ?? '', redirects, isFile).map((message) => ({
      path: REDIRECTS_FILE,
      rule: 'hosting',
      message,
    })),
    ...checkHeaderLimits(headersText ?? '', headers).map((message) => ({
      path: HEADERS_FILE,
      rule: 'hosting',
      message,
    })),
    ...checkRedirects(redirects, files).map((message) => ({
      path: REDIRECTS_FILE,
      rule: 'hosting',
      message,
    })),
    ...checkHeaderRules(headers, redirects, files).map((message) => ({
      path: HEADERS_FILE,
      rule: 'hosting',
      message,
    })),
  );
  return problems;
}
