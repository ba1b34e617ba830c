/**
 * What `agent-catalog hooks` tells a merchant, as a pure function of the resolved config:
 * which platform's webhooks to subscribe to, the receiver's URL (`{base_url}/hooks/<platform>`,
 * answered by the live handler, `live/hooks/`), the topics, and the name of the variable
 * that holds the signing secret in the host's environment. The platform is the one the
 * flag names, else the config's `upstream.format`, else what the upstream URL shows.
 */
import { HOOK_TOPICS } from '../../live/hooks/deliveries.js';
import {
  type HookPlatform,
  SHOPIFY_SECRET_VARIABLE,
  WOOCOMMERCE_SECRET_VARIABLE,
} from '../../live/hooks/hook-settings.js';
import type { ResolvedConfig } from '../config.js';
import { CatalogError } from '../errors.js';

export type { HookPlatform };

export interface HookPlan {
  platform: HookPlatform;
  /** The delivery URL to subscribe. */
  url: string;
  topics: readonly string[];
  /** Where the receiver reads the signing secret from (the host's environment). */
  secretVariable: string;
  /** The store's own origin from the upstream URL: the default Admin API origin; undefined for a file. */
  storeOrigin: string | undefined;
}

export const SECRET_VARIABLES: Readonly<Record<HookPlatform, string>> = {
  shopify: SHOPIFY_SECRET_VARIABLE,
  woocommerce: WOOCOMMERCE_SECRET_VARIABLE,
};

function storeOriginOf(source: string): URL | undefined {
  if (!URL.canParse(source)) return undefined;
  const url = new URL(source);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** Shopify's storefront listing is `/products.json` (its admin a `myshopify.com` host); WooCommerce's API lives under `/wp-json/`. */
function platformOfSource(url: URL | undefined): HookPlatform | undefined {
  if (url === undefined) return undefined;
  if (url.pathname.startsWith('/wp-json/')) return 'woocommerce';
  if (url.pathname.endsWith('/products.json') || url.hostname.endsWith('.myshopify.com')) return 'shopify';
  return undefined;
}

/** The platform a configured upstream format reads from (`shopify_admin` is Shopify's Admin API). */
function platformOfFormat(format: ResolvedConfig['upstream']['format']): HookPlatform | undefined {
  if (format === 'shopify' || format === 'shopify_admin') return 'shopify';
  return format === 'woocommerce' ? 'woocommerce' : undefined;
}

export function planHooks(config: ResolvedConfig, platform?: HookPlatform): HookPlan {
  if (!config.live.enabled) {
    throw new CatalogError(
      'CONFIG_INVALID',
      'live.enabled is false: the webhook receiver is part of the live handler, so turn the live surface on first',
      { field: 'live.enabled' },
    );
  }
  const store = storeOriginOf(config.upstream.source);
  const chosen = platform ?? platformOfFormat(config.upstream.format) ?? platformOfSource(store);
  if (chosen === undefined) {
    throw new CatalogError(
      'FLAG_INVALID',
      'cannot tell the store platform from the config (upstream.format is not shopify, shopify_admin or woocommerce); pass --platform shopify or --platform woocommerce',
      { flag: '--platform' },
    );
  }
  return {
    platform: chosen,
    url: `${config.base_url}/hooks/${chosen}`,
    topics: HOOK_TOPICS[chosen],
    secretVariable: SECRET_VARIABLES[chosen],
    storeOrigin: store?.origin,
  };
}
