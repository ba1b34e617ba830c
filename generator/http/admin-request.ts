/**
 * Requests to a store's Admin API for `agent-catalog hooks` (Shopify's GraphQL Admin API,
 * WooCommerce's REST API): one JSON request under a timeout and a response size cap, with
 * the credentials in headers the caller builds, never in the URL. Redirects are not
 * followed (a redirect would carry the token to a host the merchant did not name), and a
 * `POST` is never retried (it may have been applied; the caller lists before it creates).
 * Failures are CatalogErrors with the UPSTREAM_* codes of the build's client, naming the
 * URL without credentials and the status.
 */
import { Agent, request } from 'undici';
import { CatalogError } from '../errors.js';
import { AttemptError, type JsonResponse, readJsonResponse } from './attempt.js';
import { redactUrl } from './redact-url.js';

export interface AdminRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Readonly<Record<string, string>>;
  /** A JSON document, for `POST`. */
  body?: unknown;
}

export interface AdminRequestOptions {
  userAgent: string;
  /** The whole request, body included. Default 15 s. */
  timeoutMs?: number;
  /** Default 4 MiB: a page of 100 webhooks is a few kilobytes. */
  maxResponseBytes?: number;
}

function httpError(status: number, url: string): CatalogError {
  const why =
    status === 401 || status === 403
      ? ': the store refused the credentials (check the token and its scopes)'
      : status >= 300 && status < 400
        ? ': a redirect, not followed (name the admin origin itself with --admin-url)'
        : '';
  return new CatalogError('UPSTREAM_HTTP', `the store's Admin API answered ${status} for ${url}${why}`, {
    url,
    status,
  });
}

export async function requestAdminJson(
  admin: AdminRequest,
  options: AdminRequestOptions,
): Promise<JsonResponse> {
  const shown = redactUrl(admin.url.href);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const agent = new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    const response = await request(admin.url, {
      method: admin.method,
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        accept: 'application/json',
        'user-agent': options.userAgent,
        ...(admin.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...admin.headers,
      },
      ...(admin.body !== undefined ? { body: JSON.stringify(admin.body) } : {}),
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      throw httpError(response.statusCode, shown);
    }
    return await readJsonResponse(response, shown, options.maxResponseBytes ?? 4 * 1024 * 1024);
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    if (error instanceof AttemptError) throw error.error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new CatalogError(
      timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_NETWORK',
      timedOut
        ? `the store's Admin API did not answer within ${timeoutMs} ms (${shown})`
        : `the store's Admin API could not be reached (${shown})`,
      { url: shown, status: undefined },
      { cause: error },
    );
  } finally {
    await agent.destroy();
  }
}
