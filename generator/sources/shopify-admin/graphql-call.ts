/**
 * One Admin GraphQL call with Shopify's error rules applied. HTTP failures are the HTTP
 * client's (retried, then UPSTREAM_HTTP). A 200 may still carry `errors`:
 * - `THROTTLED`: the leaky bucket is empty; the answer's `extensions.cost.throttleStatus`
 *   says how fast it refills, so the call waits that long and tries again, a bounded
 *   number of times, then fails with UPSTREAM_LIMIT;
 * - `MAX_COST_EXCEEDED` (a query over the cost limit): UPSTREAM_LIMIT at once;
 * - `ACCESS_DENIED`: the token lacks a scope: UPSTREAM_HTTP naming the scope to grant;
 * - anything else: UPSTREAM_SHAPE with Shopify's messages.
 * The token travels in a header and is never part of a message.
 */
import { CatalogError, type CatalogErrorCode } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { redactUrl } from '../../http/redact-url.js';

export interface AdminGraphql {
  endpoint: URL;
  token: string;
  client: HttpClient;
  /** Waits `ms`; injected so tests need not sleep through a throttle. */
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Throttled answers retried before the build gives up. */
export const MAX_THROTTLED_RETRIES = 5;
/** The longest single wait for the bucket to refill. */
const MAX_THROTTLE_WAIT_MS = 30_000;

interface GraphqlError {
  message?: unknown;
  extensions?: { code?: unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readErrors(body: Record<string, unknown>): GraphqlError[] {
  return Array.isArray(body.errors) ? body.errors.filter(isRecord) : [];
}

function codeOf(error: GraphqlError): string | undefined {
  const code = error.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Milliseconds until the bucket holds the query's cost again, from the answer's cost extension. */
export function planThrottleWaitMs(body: Record<string, unknown>): number {
  const cost = isRecord(body.extensions) && isRecord(body.extensions.cost) ? body.extensions.cost : {};
  const status = isRecord(cost.throttleStatus) ? cost.throttleStatus : {};
  const requested = typeof cost.requestedQueryCost === 'number' ? cost.requestedQueryCost : 10;
  const available = typeof status.currentlyAvailable === 'number' ? status.currentlyAvailable : 0;
  const rate = typeof status.restoreRate === 'number' && status.restoreRate > 0 ? status.restoreRate : 50;
  const seconds = Math.max(0, requested - available) / rate;
  return Math.min(MAX_THROTTLE_WAIT_MS, Math.max(1_000, Math.ceil(seconds * 1_000)));
}

function fail(code: CatalogErrorCode, message: string, url: string, extra: object = {}): CatalogError {
  return new CatalogError(code, message, { url, status: 200, ...extra });
}

function describe(errors: readonly GraphqlError[]): string {
  return errors
    .slice(0, 3)
    .map((error) => (typeof error.message === 'string' ? error.message.slice(0, 200) : 'an error'))
    .join('; ');
}

/** Runs `query` and returns its `data`, or throws the CatalogError its errors call for. */
export async function callAdminGraphql(
  api: AdminGraphql,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = redactUrl(api.endpoint.href);
  for (let throttled = 0; ; throttled++) {
    const response = await api.client.sendJson(
      api.endpoint.href,
      { json: { query, variables }, headers: { 'x-shopify-access-token': api.token } },
      api.signal,
    );
    const body = response.body;
    if (!isRecord(body))
      throw fail('UPSTREAM_SHAPE', `the Admin API at ${url} answered with no JSON object`, url);
    const errors = readErrors(body);
    const codes = errors.map(codeOf);
    if (codes.includes('THROTTLED')) {
      if (throttled >= MAX_THROTTLED_RETRIES) {
        throw fail(
          'UPSTREAM_LIMIT',
          `the Admin API at ${url} stayed throttled after ${MAX_THROTTLED_RETRIES} waits; another app may be using the store's query budget, try again later`,
          url,
          { graphqlCode: 'THROTTLED' },
        );
      }
      await api.sleep(planThrottleWaitMs(body));
      continue;
    }
    if (codes.includes('MAX_COST_EXCEEDED')) {
      throw fail(
        'UPSTREAM_LIMIT',
        `the Admin API at ${url} refused the query's cost: ${describe(errors)}`,
        url,
        {
          graphqlCode: 'MAX_COST_EXCEEDED',
        },
      );
    }
    if (codes.includes('ACCESS_DENIED')) {
      throw fail(
        'UPSTREAM_HTTP',
        `the Admin API at ${url} denied access: give the app's token the read_products scope (${describe(errors)})`,
        url,
        { graphqlCode: 'ACCESS_DENIED', status: 403 },
      );
    }
    if (errors.length > 0) {
      throw fail('UPSTREAM_SHAPE', `the Admin API at ${url} answered with errors: ${describe(errors)}`, url);
    }
    if (!isRecord(body.data))
      throw fail('UPSTREAM_SHAPE', `the Admin API at ${url} answered with no data`, url);
    return body.data;
  }
}
