/**
 * Deployment model (b)'s one proxy rule: `/*  <storefront_origin>/:splat  200`, the last
 * line of `_redirects`, so the CDN sends every path the bundle does not serve to the
 * storefront's origin server. Netlify serves a file first and reads rules top to bottom,
 * so every document and every rewrite above it still wins
 * (https://docs.netlify.com/manage/routing/redirects/rewrites-proxies/#proxy-to-another-service).
 * Cloudflare Pages cannot proxy from `_redirects` ("Proxy (200) redirects can only point to
 * relative paths"): `wrangler pages dev` drops this line with that warning and keeps the
 * others, which the engine test asserts; docs/hosting.md says what a Cloudflare user does
 * instead. The emitter writes the rule from here and the checker recognises it from here.
 */
import type { RedirectRule } from './hosting-rules-format.js';

const PROXY_FROM = '/*';
const PROXY_TARGET = /^https?:\/\/[^/?#\s]+\/:splat$/;

/** The rule for a storefront origin (an origin without a trailing slash). */
export function storefrontProxyRule(origin: string): RedirectRule {
  return { from: PROXY_FROM, to: `${origin}/:splat`, status: 200, force: false };
}

/** A plain 200 from `/*` to another origin's `/:splat`: the only catch-all the bundle may carry. */
export function isStorefrontProxy(rule: RedirectRule): boolean {
  return rule.from === PROXY_FROM && rule.status === 200 && !rule.force && PROXY_TARGET.test(rule.to);
}
