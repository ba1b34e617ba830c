/**
 * A Shopify `products/update` webhook delivery, signed and sent as Shopify sends it, for
 * the hooks bench: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw body under
 * the app's secret (computed here with node:crypto, apart from the receiver's Web Crypto
 * check), with the topic, a fresh webhook id and the trigger time. The body carries the
 * product's id, handle and changed price; the receiver reads only the headers and the
 * signature, and the rebuild reads the store, so a full product payload would add nothing.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { PriceChange } from './price-change.js';

/** The secret the bench gives both the receiver and the delivery: any string the host would hold. */
export const BENCH_SHOPIFY_SECRET = 'shpss_bench-secret-for-the-receiver';

export interface SignedDelivery {
  headers: Record<string, string>;
  body: string;
}

export function signShopifyUpdate(change: PriceChange, secret: string, now = new Date()): SignedDelivery {
  const body = JSON.stringify({
    id: change.id,
    handle: change.handle,
    variants: [{ price: change.to }],
    updated_at: now.toISOString(),
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': 'products/update',
      'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
      'x-shopify-shop-domain': 'bench.myshopify.com',
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-triggered-at': now.toISOString(),
    },
  };
}

/** Posts the delivery; resolves with the receiver's status and when its answer had fully arrived. */
export async function sendDelivery(
  url: string,
  delivery: SignedDelivery,
): Promise<{ status: number; body: string; answeredAt: number }> {
  const response = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
  const body = await response.text();
  return { status: response.status, body, answeredAt: performance.now() };
}
