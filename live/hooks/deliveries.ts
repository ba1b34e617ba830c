/**
 * What each platform's delivery says beyond its signature: its topic, its delivery id (for
 * telling a retry from a new change) and, for Shopify, when it was triggered. Pure
 * functions of the headers; the receiver (`webhook-route.ts`) verifies the signature first.
 *
 * Shopify: `X-Shopify-Topic`, `X-Shopify-Webhook-Id` (the same on every retry of one
 * delivery), `X-Shopify-Triggered-At` (ISO 8601). WooCommerce: `X-WC-Webhook-Topic`,
 * `X-WC-Webhook-Delivery-ID`; its ping, sent once when a webhook is created, is an unsigned
 * form body `webhook_id=<n>` and must get a 200 or the webhook is not saved
 * (`WC_Webhook::deliver_ping`).
 */
import type { HookPlatform } from './hook-settings.js';

/** The topics that change what the catalog publishes: products and their stock. */
export const HOOK_TOPICS: Readonly<Record<HookPlatform, readonly string[]>> = {
  shopify: ['products/create', 'products/update', 'products/delete', 'inventory_levels/update'],
  woocommerce: ['product.created', 'product.updated', 'product.deleted', 'product.restored'],
};

/** A Shopify delivery triggered longer ago than this (or this far in the future) is refused. */
export const MAX_DELIVERY_AGE_MS = 15 * 60_000;

export const SIGNATURE_HEADER: Readonly<Record<HookPlatform, string>> = {
  shopify: 'x-shopify-hmac-sha256',
  woocommerce: 'x-wc-webhook-signature',
};

const TOPIC_HEADER: Readonly<Record<HookPlatform, string>> = {
  shopify: 'x-shopify-topic',
  woocommerce: 'x-wc-webhook-topic',
};

const DELIVERY_ID_HEADER: Readonly<Record<HookPlatform, string>> = {
  shopify: 'x-shopify-webhook-id',
  woocommerce: 'x-wc-webhook-delivery-id',
};

export type DeliveryVerdict =
  | { kind: 'accept'; topic: string; relevant: boolean; deliveryId: string | undefined }
  | { kind: 'refuse'; status: 400; reason: string };

/** True for WooCommerce's creation ping: no signature, a form body naming the webhook. */
export function isWooCommercePing(platform: HookPlatform, headers: Headers, body: Uint8Array): boolean {
  if (platform !== 'woocommerce' || headers.has(SIGNATURE_HEADER.woocommerce)) return false;
  if (body.byteLength > 64) return false;
  return /^webhook_id=\d{1,20}$/.test(new TextDecoder().decode(body));
}

/** Shopify's trigger time must be within 15 minutes of now; a missing one is not judged. */
function checkTriggeredAt(headers: Headers, now: number): string | undefined {
  const value = headers.get('x-shopify-triggered-at');
  if (value === null) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return 'X-Shopify-Triggered-At is not a date-time';
  if (Math.abs(now - time) > MAX_DELIVERY_AGE_MS) {
    return 'X-Shopify-Triggered-At is more than 15 minutes from now: a stale delivery is not acted on';
  }
  return undefined;
}

/** Judges a delivery whose signature has been verified. */
export function judgeDelivery(platform: HookPlatform, headers: Headers, now: number): DeliveryVerdict {
  if (platform === 'shopify') {
    const stale = checkTriggeredAt(headers, now);
    if (stale !== undefined) return { kind: 'refuse', status: 400, reason: stale };
  }
  const topic = headers.get(TOPIC_HEADER[platform])?.trim() ?? '';
  const deliveryId = headers.get(DELIVERY_ID_HEADER[platform])?.trim() || undefined;
  return { kind: 'accept', topic, relevant: HOOK_TOPICS[platform].includes(topic), deliveryId };
}
