/**
 * What both hosts named in the docs accept in `_redirects` and `_headers`, so `check` can
 * refuse a rules file that one of them would drop line by line at deploy time. Netlify reads
 * a superset of Cloudflare Pages' syntax, so Cloudflare's limits are the binding ones:
 * statuses 200, 301, 302, 303, 307 and 308 only (no forced `200!`, no 404 rewrites), a
 * rewrite only to a path of the same site (no proxying to another origin, except model (b)'s
 * storefront proxy, which Netlify serves and Cloudflare drops alone), at most 2,000
 * static and 100 dynamic redirects of at most 1,000 characters each, and at most 100
 * header rules with lines of at most 2,000 characters.
 * Sources: https://developers.cloudflare.com/pages/configuration/redirects/ and
 * https://developers.cloudflare.com/pages/configuration/headers/ ("Limits");
 * https://docs.netlify.com/manage/routing/redirects/rewrites-proxies/ (shadowing).
 */
import type { HeaderRule, RedirectRule } from './hosting-rules-format.js';
import { isStorefrontProxy } from './storefront-proxy.js';

export const PORTABLE_REDIRECT_STATUSES: readonly number[] = [200, 301, 302, 303, 307, 308];
export const MAX_STATIC_REDIRECTS = 2000;
export const MAX_DYNAMIC_REDIRECTS = 100;
export const MAX_REDIRECT_LINE = 1000;
export const MAX_HEADER_RULES = 100;
export const MAX_HEADER_LINE = 2000;

const DYNAMIC = /[*]|\/:[A-Za-z]/;

function describe(rule: RedirectRule): string {
  return `rule "${rule.from} ${rule.to} ${rule.status}${rule.force ? '!' : ''}"`;
}

/** What Cloudflare Pages would reject, or Netlify serve differently, in one redirect rule. */
function redirectFaults(rule: RedirectRule, isFile: (urlPath: string) => boolean): string[] {
  const label = describe(rule);
  const faults: string[] = [];
  if (rule.force || !PORTABLE_REDIRECT_STATUSES.includes(rule.status)) {
    faults.push(
      `${label}: Cloudflare Pages accepts only the statuses ${PORTABLE_REDIRECT_STATUSES.join(', ')}, without "!"`,
    );
  }
  // Model (b)'s proxy is the one exception: Netlify serves it, Cloudflare drops only that line.
  if (rule.status === 200 && !rule.to.startsWith('/') && !isStorefrontProxy(rule)) {
    faults.push(`${label}: Cloudflare Pages cannot proxy to another origin from _redirects`);
  }
  if (rule.status === 200 && isFile(rule.from)) {
    faults.push(
      `${label}: a file is served at ${rule.from}, so Netlify serves the file and Cloudflare the rewrite`,
    );
  }
  return faults;
}

/** Host limits on a parsed `_redirects` (its text for the line lengths). */
export function checkRedirectLimits(
  text: string,
  rules: readonly RedirectRule[],
  isFile: (urlPath: string) => boolean,
): string[] {
  const faults = rules.flatMap((rule) => redirectFaults(rule, isFile));
  const dynamic = rules.filter((rule) => DYNAMIC.test(rule.from)).length;
  if (rules.length - dynamic > MAX_STATIC_REDIRECTS)
    faults.push(
      `${rules.length - dynamic} static redirects; Cloudflare Pages allows ${MAX_STATIC_REDIRECTS}`,
    );
  if (dynamic > MAX_DYNAMIC_REDIRECTS)
    faults.push(`${dynamic} dynamic redirects; Cloudflare Pages allows ${MAX_DYNAMIC_REDIRECTS}`);
  faults.push(...longLines(text, MAX_REDIRECT_LINE));
  return faults;
}

/** Host limits on a parsed `_headers` (its text for the line lengths). */
export function checkHeaderLimits(text: string, rules: readonly HeaderRule[]): string[] {
  const faults: string[] = [];
  if (rules.length > MAX_HEADER_RULES)
    faults.push(`${rules.length} header rules; Cloudflare Pages allows ${MAX_HEADER_RULES}`);
  faults.push(...longLines(text, MAX_HEADER_LINE));
  return faults;
}

function longLines(text: string, limit: number): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line, index) =>
      line.length > limit
        ? [`line ${index + 1} is ${line.length} characters; Cloudflare Pages allows ${limit}`]
        : [],
    );
}
