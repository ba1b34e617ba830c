/**
 * Decides what a request path serves, in Netlify's order: a forced `_redirects` rule
 * first; then a file of the bundle at that path (a directory with `index.html` is served
 * at its slash URL, and the slash-less URL is redirected there with 301, as Netlify's
 * pretty URLs do); then an unforced rule (a file "shadows" it); otherwise nothing.
 * Rewrites (status 200, or 404 with a custom page) serve the target file under the
 * requested URL; other statuses are redirects to the target.
 */

import { findRedirect, type HostingRules, type RedirectMatch } from './hosting-rules.js';
import {
  isHiddenPath,
  type ParsedPath,
  parseRequestPath,
  type ResolvedFile,
  resolveInside,
} from './request-path.js';

export type Route =
  | {
      kind: 'file';
      resolved: ResolvedFile;
      status: number;
      /** URL paths whose `_headers` rules apply, in order of precedence. */
      headerPaths: string[];
    }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'proxy'; target: string }
  | { kind: 'missing' };

const MISSING: Route = { kind: 'missing' };

async function resolveStatic(realDir: string, path: string): Promise<Route | undefined> {
  const found = await resolveInside(realDir, path);
  if (found === undefined) return undefined;
  if (found.stats.isFile()) {
    return path.endsWith('/')
      ? undefined
      : { kind: 'file', resolved: found, status: 200, headerPaths: [path] };
  }
  const indexPath = `${path.endsWith('/') ? path : `${path}/`}index.html`;
  const index = await resolveInside(realDir, indexPath);
  if (index === undefined || !index.stats.isFile()) return undefined;
  if (!path.endsWith('/')) return { kind: 'redirect', status: 301, location: `${path}/` };
  return { kind: 'file', resolved: index, status: 200, headerPaths: [path, indexPath] };
}

async function applyRedirect(realDir: string, path: string, match: RedirectMatch): Promise<Route> {
  const { rule, target } = match;
  if (rule.status >= 300 && rule.status < 400)
    return { kind: 'redirect', status: rule.status, location: target };
  if (/^https?:\/\//.test(target)) return { kind: 'proxy', target };
  const parsed: ParsedPath = parseRequestPath(target);
  if (!parsed.ok || isHiddenPath(parsed.path)) return MISSING;
  const served = await resolveStatic(realDir, parsed.path);
  if (served?.kind !== 'file') return MISSING;
  return { ...served, status: rule.status, headerPaths: [path, ...served.headerPaths] };
}

/** The route for a decoded, validated, non-hidden request path. */
export async function resolveRoute(realDir: string, rules: HostingRules, path: string): Promise<Route> {
  const forced = findRedirect(rules, path, true);
  if (forced) return applyRedirect(realDir, path, forced);
  const direct = await resolveStatic(realDir, path);
  if (direct) return direct;
  const shadowable = findRedirect(rules, path, false);
  if (shadowable) return applyRedirect(realDir, path, shadowable);
  return MISSING;
}
