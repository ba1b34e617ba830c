/**
 * `agent-catalog hooks --register`: subscribes the store's webhooks to the receiver with
 * the Admin API credentials from the environment (never from a flag, which would land in
 * the shell's history and the process list). Shopify takes an Admin API access token;
 * WooCommerce REST API keys and the webhook secret the receiver verifies with. The Admin
 * API origin is `--admin-url`, else the upstream's origin, and must be https (or http on a
 * loopback host), since the credentials travel with each request.
 */
import { CatalogError } from '../errors.js';
import { ADMIN_TOKEN_ENV } from '../sources/shopify-admin/admin-endpoint.js';
import type { HookPlan } from './hook-plan.js';
import { type Registration, registerShopifySubscriptions } from './shopify-subscriptions.js';
import { registerWooWebhooks, type WooRegistration } from './woocommerce-webhooks.js';

/** The same token the `shopify_admin` source reads the store with (it needs `read_inventory` too). */
export const SHOPIFY_ADMIN_TOKEN_VARIABLE = ADMIN_TOKEN_ENV;
export const WOO_CONSUMER_KEY_VARIABLE = 'AGENT_CATALOG_WOOCOMMERCE_CONSUMER_KEY';
export const WOO_CONSUMER_SECRET_VARIABLE = 'AGENT_CATALOG_WOOCOMMERCE_CONSUMER_SECRET';

export interface RegisterInput {
  plan: HookPlan;
  env: Readonly<Record<string, string | undefined>>;
  adminUrl: string | undefined;
  userAgent: string;
}

function requireVariable(env: RegisterInput['env'], name: string, why: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new CatalogError('CONFIG_INVALID', `${name} is not set: ${why}`, { variable: name });
  }
  return value.trim();
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** The Admin API origin, checked: https, or http on loopback (for a local stand-in). */
export function resolveAdminOrigin(adminUrl: string | undefined, plan: HookPlan): string {
  const given = adminUrl ?? plan.storeOrigin;
  if (given === undefined) {
    throw new CatalogError(
      'FLAG_INVALID',
      'the upstream is a file, so the store is unknown: pass --admin-url with the store admin origin',
      { flag: '--admin-url' },
    );
  }
  if (!URL.canParse(given)) {
    throw new CatalogError('FLAG_INVALID', `--admin-url ${given}: not a URL`, { flag: '--admin-url' });
  }
  const url = new URL(given);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)))) {
    throw new CatalogError(
      'FLAG_INVALID',
      `--admin-url ${url.origin}: expected https (credentials travel with each request), or http on a loopback host`,
      { flag: '--admin-url' },
    );
  }
  return url.origin;
}

export async function registerHooks(input: RegisterInput): Promise<(Registration | WooRegistration)[]> {
  const { plan, env, userAgent } = input;
  if (plan.platform === 'shopify') {
    const token = requireVariable(
      env,
      SHOPIFY_ADMIN_TOKEN_VARIABLE,
      "an Admin API access token with the read_products and read_inventory scopes (your custom app's API credentials)",
    );
    const adminOrigin = resolveAdminOrigin(input.adminUrl, plan);
    return registerShopifySubscriptions({ adminOrigin, token, userAgent }, plan.url, plan.topics);
  }
  const consumerKey = requireVariable(
    env,
    WOO_CONSUMER_KEY_VARIABLE,
    'a WooCommerce REST API key with read/write access',
  );
  const consumerSecret = requireVariable(env, WOO_CONSUMER_SECRET_VARIABLE, "that key's consumer secret");
  const secret = requireVariable(
    env,
    plan.secretVariable,
    'the webhook secret WooCommerce signs with; set the same value in the host environment',
  );
  const adminOrigin = resolveAdminOrigin(input.adminUrl, plan);
  return registerWooWebhooks(
    { adminOrigin, consumerKey, consumerSecret, userAgent },
    plan.url,
    plan.topics,
    secret,
  );
}
