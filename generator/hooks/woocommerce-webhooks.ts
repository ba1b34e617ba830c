/**
 * Registers the receiver with WooCommerce through its REST API (`/wp-json/wc/v3/webhooks`):
 * lists the store's webhooks (`GET ?per_page=100&page=n`) and creates only those missing
 * for the receiver's URL (`POST` with `name`, `topic`, `delivery_url`, `secret` and
 * `status: "active"`), so running it again changes nothing. The REST API keys go as HTTP
 * Basic credentials (WooCommerce's documented way over HTTPS). The webhook's `secret` is
 * the one the receiver verifies with; it is sent to the store and never printed.
 */
import { CatalogError } from '../errors.js';
import { requestAdminJson } from '../http/admin-request.js';
import { isRecord } from '../validate/bundle-layout.js';
import type { Registration } from './shopify-subscriptions.js';

const PER_PAGE = 100;
const MAX_PAGES = 10;

export interface WooTarget {
  /** The WordPress site's origin (or a loopback stand-in). */
  adminOrigin: string;
  consumerKey: string;
  consumerSecret: string;
  userAgent: string;
}

export interface WooRegistration extends Registration {
  /** For one that exists: its status when not `active` (paused or disabled deliver nothing). */
  inactive?: string;
}

function authorization(target: WooTarget): Record<string, string> {
  const credentials = Buffer.from(`${target.consumerKey}:${target.consumerSecret}`).toString('base64');
  return { authorization: `Basic ${credentials}` };
}

function webhooksUrl(target: WooTarget): URL {
  return new URL('/wp-json/wc/v3/webhooks', target.adminOrigin);
}

interface ExistingWebhook {
  topic: string;
  status: string;
}

async function listWebhooks(target: WooTarget, deliveryUrl: string): Promise<ExistingWebhook[]> {
  const found: ExistingWebhook[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const url = webhooksUrl(target);
    url.searchParams.set('per_page', String(PER_PAGE));
    url.searchParams.set('page', String(page));
    const response = await requestAdminJson(
      { method: 'GET', url, headers: authorization(target) },
      { userAgent: target.userAgent },
    );
    if (!Array.isArray(response.body)) {
      throw new CatalogError(
        'UPSTREAM_SHAPE',
        `WooCommerce answered ${response.url} without a list of webhooks`,
        {
          url: response.url,
          status: response.status,
        },
      );
    }
    for (const hook of response.body) {
      if (isRecord(hook) && hook.delivery_url === deliveryUrl && typeof hook.topic === 'string') {
        found.push({ topic: hook.topic, status: typeof hook.status === 'string' ? hook.status : 'unknown' });
      }
    }
    if (response.body.length < PER_PAGE) break;
  }
  return found;
}

export async function registerWooWebhooks(
  target: WooTarget,
  deliveryUrl: string,
  topics: readonly string[],
  secret: string,
): Promise<WooRegistration[]> {
  const existing = await listWebhooks(target, deliveryUrl);
  const results: WooRegistration[] = [];
  for (const topic of topics) {
    const same = existing.filter((hook) => hook.topic === topic);
    if (same.length > 0) {
      const active = same.some((hook) => hook.status === 'active');
      results.push({
        topic,
        status: 'exists',
        ...(active ? {} : { inactive: same[0]?.status ?? 'unknown' }),
      });
      continue;
    }
    await requestAdminJson(
      {
        method: 'POST',
        url: webhooksUrl(target),
        headers: authorization(target),
        body: { name: `agent-catalog ${topic}`, topic, delivery_url: deliveryUrl, secret, status: 'active' },
      },
      { userAgent: target.userAgent },
    );
    results.push({ topic, status: 'created' });
  }
  return results;
}
