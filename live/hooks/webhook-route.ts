/**
 * The webhook receiver, a route of the live core: `POST {base_url}/hooks/shopify` and
 * `POST {base_url}/hooks/woocommerce`. Each is on only when its secret is in the host's
 * environment; otherwise its path is a plain 404 on every host, as any unknown path (the
 * hosts route the path here either way, since the secrets are unknown at build time). In order:
 * the method (405), the body within 1 MiB (413) and 8 s (408), WooCommerce's creation
 * ping (200), the signature (401), the delivery's age (Shopify, 400), a replay of a
 * delivery id already seen (200, nothing more), a topic that does not touch the catalog
 * (200, nothing), and only then a trigger, scheduled to run after the answer (the shell's
 * `waitUntil`), so the platform gets its 200 at once (Shopify allows 5 s).
 */
import { readBodyBytes } from '../read-body.js';
import { isWooCommercePing, judgeDelivery, SIGNATURE_HEADER } from './deliveries.js';
import type { HookRuntime } from './hook-runtime.js';
import type { HookPlatform } from './hook-settings.js';
import { verifyHmacSignature } from './verify-signature.js';

/**
 * Shopify's product payloads with many variants and images stay well under 1 MiB. The
 * deadline is the other live paths' (`DEFAULT_BODY_LIMITS`): under the contract's 10 s.
 */
export const HOOK_BODY_LIMITS = { maxBytes: 1024 * 1024, deadlineMs: 8_000 };

const PLATFORMS: readonly HookPlatform[] = ['shopify', 'woocommerce'];

/** The receiver's paths under `basePath` (`''` or `/api`). */
export function hookPaths(basePath: string): string[] {
  return PLATFORMS.map((platform) => `${basePath}/hooks/${platform}`);
}

export function matchHookPath(pathname: string, basePath: string): HookPlatform | undefined {
  return PLATFORMS.find((platform) => pathname === `${basePath}/hooks/${platform}`);
}

/** True for a path ending in a receiver's path, whatever the base: a shell sizes its body limit by it. */
export function isHookPathname(pathname: string): boolean {
  return PLATFORMS.some((platform) => pathname.endsWith(`/hooks/${platform}`));
}

function answer(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return Response.json(body, {
    status,
    headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
  });
}

/** As plain as the hosts' own 404: nothing tells a receiver that is off from a path that never existed. */
function notFound(): Response {
  return new Response('not found', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The answer for a receiver's path (a 404 when that receiver is off). `waitUntil`
 * keeps the instance alive for the trigger after the answer (Cloudflare's `ctx.waitUntil`,
 * Netlify's `context.waitUntil`; a Node process simply lives on).
 */
export async function handleWebhookRequest(
  request: Request,
  platform: HookPlatform,
  runtime: HookRuntime | undefined,
  waitUntil: (promise: Promise<unknown>) => void = () => {},
): Promise<Response> {
  const secret = runtime?.settings.secrets[platform];
  if (runtime === undefined || secret === undefined) return notFound();
  if (request.method !== 'POST') return answer(405, { error: 'use POST' }, { allow: 'POST' });
  const body = await readBodyBytes(request, HOOK_BODY_LIMITS);
  if (!body.ok) return answer(body.status, { error: body.reason });
  if (isWooCommercePing(platform, request.headers, body.bytes)) return answer(200, { received: 'ping' });
  if (!(await verifyHmacSignature(secret, body.bytes, request.headers.get(SIGNATURE_HEADER[platform])))) {
    return answer(401, { error: `missing or wrong ${SIGNATURE_HEADER[platform]} signature` });
  }
  const now = runtime.now();
  const verdict = judgeDelivery(platform, request.headers, now);
  if (verdict.kind === 'refuse') return answer(verdict.status, { error: verdict.reason });
  if (!verdict.relevant)
    return answer(200, { received: verdict.topic, trigger: 'none: not a catalog topic' });
  if (runtime.scheduler === undefined) {
    // The merchant's set-up is incomplete: the platform's delivery log shows why.
    const reason = runtime.settings.rebuild.ok ? 'unknown' : runtime.settings.rebuild.invalid;
    return answer(503, { error: `no rebuild can be triggered: ${reason}` });
  }
  if (
    verdict.deliveryId !== undefined &&
    runtime.seen.checkAndRecord(`${platform}:${verdict.deliveryId}`, now)
  ) {
    return answer(200, { received: verdict.topic, trigger: 'none: a delivery already received' });
  }
  waitUntil(runtime.scheduler.notify());
  return answer(200, { received: verdict.topic, trigger: 'scheduled' });
}
