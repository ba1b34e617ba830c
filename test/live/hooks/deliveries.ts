/**
 * Webhook deliveries signed as each platform signs them, for the receiver's tests: Shopify
 * (`X-Shopify-Hmac-Sha256`, base64 HMAC-SHA256 of the raw body under the secret, with its
 * topic, webhook id and trigger time headers) and WooCommerce (`X-WC-Webhook-Signature`,
 * the same scheme, `WC_Webhook::generate_signature`; its creation ping an unsigned
 * `webhook_id=<n>` form body). Signed here with node:crypto, apart from the receiver's Web
 * Crypto verification, so the two are checked against each other.
 */
import { createHmac, randomUUID } from 'node:crypto';

export const SHOPIFY_SECRET = 'shpss_test-secret-for-the-receiver';
export const WOO_SECRET = 'wc-test-secret-0123456789';

export interface Delivery {
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
}

export function sign(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** A Shopify `products/update` delivery as Shopify sends it; `overrides` replace headers. */
export function shopifyDelivery(
  options: {
    topic?: string;
    secret?: string;
    triggeredAt?: Date;
    webhookId?: string;
    body?: string | Uint8Array<ArrayBuffer>;
  } = {},
): Delivery {
  const body =
    options.body ?? JSON.stringify({ id: 7_000_001, title: 'Green Glow', variants: [{ price: '6.50' }] });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': options.topic ?? 'products/update',
      'x-shopify-hmac-sha256': sign(options.secret ?? SHOPIFY_SECRET, body),
      'x-shopify-shop-domain': 'juice-test.myshopify.com',
      'x-shopify-api-version': '2025-10',
      'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
      'x-shopify-event-id': randomUUID(),
      'x-shopify-triggered-at': (options.triggeredAt ?? new Date()).toISOString(),
    },
  };
}

/** A WooCommerce `product.updated` delivery as `WC_Webhook::deliver` sends it. */
export function wooDelivery(
  options: { topic?: string; secret?: string; deliveryId?: string } = {},
): Delivery {
  const topic = options.topic ?? 'product.updated';
  const body = JSON.stringify({ id: 42, name: 'Green Glow', price: '6.50' });
  const [resource = '', event = ''] = topic.split('.');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-source': 'http://127.0.0.1/',
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-resource': resource,
      'x-wc-webhook-event': event,
      'x-wc-webhook-signature': sign(options.secret ?? WOO_SECRET, body),
      'x-wc-webhook-id': '12',
      'x-wc-webhook-delivery-id': options.deliveryId ?? randomUUID().replaceAll('-', ''),
    },
  };
}

/** WooCommerce's ping on creating a webhook: unsigned, `application/x-www-form-urlencoded`. */
export function wooPing(): Delivery {
  return {
    body: 'webhook_id=12',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

export async function deliver(url: string, delivery: Delivery): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: delivery.headers,
    body: typeof delivery.body === 'string' ? delivery.body : Buffer.from(delivery.body),
  });
  return { status: response.status, body: await response.text() };
}
