/**
 * The bundle's hosting rules as the preview applies them, read from `_headers` and
 * `_redirects` with the project's one parser (`emit/hosting-rules-format.ts`), so the
 * preview never carries a second copy of a route or a header. The files are re-read when
 * their identity (inode, size, mtime) changes, which also covers a rebuild that swaps the
 * whole bundle directory by rename. Matching follows Netlify: every `_headers` rule whose
 * path matches applies and repeated names are joined with ", "; the first `_redirects`
 * rule that matches wins; a trailing `/*` is a splat (`:splat` in the target); rule paths
 * match with or without a trailing slash. `_routes.json`, when the bundle has one, says which
 * paths go to the live handler, as Cloudflare Pages reads it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type HeaderRule,
  parseHeadersFile,
  parseRedirectsFile,
  type RedirectRule,
} from '../emit/hosting-rules-format.js';
import { type LiveRoutes, parseRoutesFile, ROUTES_FILE } from '../emit/live-routes.js';

export interface HostingRules {
  headers: HeaderRule[];
  redirects: RedirectRule[];
  /** `{base_url}` path + `/agent-catalog`, from the rewrite that serves the catalog. */
  catalogPath: string;
  /** The headers `_headers` gives the catalog; JSON errors borrow its CORS origin. */
  catalogHeaders: [string, string][];
  /** The `RateLimit-Policy` value the rules announce, if any. */
  rateLimitPolicy: string | undefined;
  /** The paths the live handler answers (`_routes.json`); undefined when the bundle has no live surface. */
  liveRoutes: LiveRoutes | undefined;
}

export interface RedirectMatch {
  rule: RedirectRule;
  /** The target with `:splat` filled in. */
  target: string;
}

const CATALOG_SUFFIX = '/agent-catalog';

async function fileIdentity(file: string): Promise<string> {
  try {
    const stats = await stat(file);
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

async function readOptional(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return '';
    throw error;
  }
}

function findCatalogPath(redirects: readonly RedirectRule[]): string {
  const rule = redirects.find((item) => item.status === 200 && item.from.endsWith(CATALOG_SUFFIX));
  return rule?.from ?? CATALOG_SUFFIX;
}

// Facts every request needs, derived once per load of the rules rather than per request.
function deriveRules(
  headers: HeaderRule[],
  redirects: RedirectRule[],
  liveRoutes: LiveRoutes | undefined,
): HostingRules {
  const catalogPath = findCatalogPath(redirects);
  return {
    headers,
    redirects,
    catalogPath,
    catalogHeaders: [...collectHeaders({ headers }, catalogPath).values()],
    rateLimitPolicy: headers
      .flatMap((rule) => rule.headers)
      .find(([name]) => name.toLowerCase() === 'ratelimit-policy')?.[1],
    liveRoutes,
  };
}

/** A loader that parses the rules of a bundle directory again only when the files changed. */
export function createRulesLoader(): (realDir: string) => Promise<HostingRules> {
  let cached: { key: string; rules: HostingRules } | undefined;
  return async (realDir) => {
    const headersFile = join(realDir, '_headers');
    const redirectsFile = join(realDir, '_redirects');
    const routesFile = join(realDir, ROUTES_FILE);
    const identities = await Promise.all([headersFile, redirectsFile, routesFile].map(fileIdentity));
    const key = `${realDir}|${identities.join('|')}`;
    if (cached?.key === key) return cached.rules;
    const headers = parseHeadersFile(await readFile(headersFile, 'utf8'));
    const redirects = parseRedirectsFile(await readOptional(redirectsFile));
    const routesText = await readOptional(routesFile);
    const rules = deriveRules(
      headers,
      redirects,
      routesText === '' ? undefined : parseRoutesFile(routesText),
    );
    cached = { key, rules };
    return rules;
  };
}

export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Matches one rule path against a request path; returns the splat ('' when none) or undefined. */
export function matchRulePath(rulePath: string, path: string): string | undefined {
  if (rulePath.endsWith('/*')) {
    const prefix = rulePath.slice(0, -1);
    if (path.startsWith(prefix)) return path.slice(prefix.length);
    return path === prefix.slice(0, -1) ? '' : undefined;
  }
  return withoutTrailingSlash(rulePath) === withoutTrailingSlash(path) ? '' : undefined;
}

export function findRedirect(rules: HostingRules, path: string, forced: boolean): RedirectMatch | undefined {
  for (const rule of rules.redirects) {
    if (rule.force !== forced) continue;
    const splat = matchRulePath(rule.from, path);
    if (splat !== undefined) return { rule, target: rule.to.replaceAll(':splat', splat) };
  }
  return undefined;
}

/** Every header that `_headers` gives `path`, names in their first spelling, repeated values joined. */
export function collectHeaders(
  rules: Pick<HostingRules, 'headers'>,
  path: string,
): Map<string, [string, string]> {
  const collected = new Map<string, [string, string]>();
  for (const rule of rules.headers) {
    if (matchRulePath(rule.path, path) === undefined) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      const previous = collected.get(key);
      collected.set(key, previous ? [previous[0], `${previous[1]}, ${value}`] : [name, value]);
    }
  }
  return collected;
}
