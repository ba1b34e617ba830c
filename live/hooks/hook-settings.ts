/**
 * What the webhook receiver takes from the host's environment, and only from there: the
 * signing secrets of the store's webhooks and where a rebuild is triggered. Nothing here
 * is written into the bundle (a secret in a published file would be public), so a shell
 * passes its host's variables in (`env` on Cloudflare, `Netlify.env` on Netlify,
 * `process.env` for `serve`). A receiver whose secret is unset is off: its path is a 404.
 */

export const SHOPIFY_SECRET_VARIABLE = 'AGENT_CATALOG_SHOPIFY_WEBHOOK_SECRET';
export const WOOCOMMERCE_SECRET_VARIABLE = 'AGENT_CATALOG_WOOCOMMERCE_WEBHOOK_SECRET';
export const REBUILD_URL_VARIABLE = 'AGENT_CATALOG_REBUILD_URL';
export const REBUILD_TOKEN_VARIABLE = 'AGENT_CATALOG_REBUILD_TOKEN';

/** Reads one variable of the host's environment; undefined when unset. */
export type EnvReader = (name: string) => string | undefined;

export type HookPlatform = 'shopify' | 'woocommerce';

/** Where a rebuild is triggered; `invalid` names why the variable cannot be used. */
export type RebuildTarget =
  | { ok: true; url: URL; token: string | undefined }
  | { ok: false; invalid: string };

export interface HookSettings {
  secrets: Partial<Record<HookPlatform, string>>;
  rebuild: RebuildTarget;
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '[::1]']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The rebuild URL must be https, or http on a loopback host (tests, and `serve` beside a
 * local build runner): a build hook's URL is itself a secret, and a bearer token must
 * never cross the network in clear text. The URL is never echoed, only what is wrong.
 */
export function parseRebuildTarget(url: string | undefined, token: string | undefined): RebuildTarget {
  const value = nonEmpty(url);
  if (value === undefined) return { ok: false, invalid: `${REBUILD_URL_VARIABLE} is not set` };
  if (!URL.canParse(value)) return { ok: false, invalid: `${REBUILD_URL_VARIABLE} is not a URL` };
  const parsed = new URL(value);
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname));
  if (!secure) {
    return { ok: false, invalid: `${REBUILD_URL_VARIABLE} must be https (or http on a loopback host)` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      invalid: `${REBUILD_URL_VARIABLE} must not carry credentials; use ${REBUILD_TOKEN_VARIABLE}`,
    };
  }
  return { ok: true, url: parsed, token: nonEmpty(token) };
}

export function readHookSettings(env: EnvReader): HookSettings {
  const secrets: Partial<Record<HookPlatform, string>> = {};
  const shopify = nonEmpty(env(SHOPIFY_SECRET_VARIABLE));
  const woocommerce = nonEmpty(env(WOOCOMMERCE_SECRET_VARIABLE));
  if (shopify !== undefined) secrets.shopify = shopify;
  if (woocommerce !== undefined) secrets.woocommerce = woocommerce;
  return { secrets, rebuild: parseRebuildTarget(env(REBUILD_URL_VARIABLE), env(REBUILD_TOKEN_VARIABLE)) };
}

/** True when at least one receiver is on: only then does a shell build the receiver's state. */
export function hasReceiver(settings: HookSettings): boolean {
  return Object.keys(settings.secrets).length > 0;
}
