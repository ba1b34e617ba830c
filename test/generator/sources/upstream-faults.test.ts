/**
 * Every way a real store or network fails, against the loopback upstream: each ends in
 * the right UPSTREAM_* code (details carrying the URL and status) within the configured
 * deadline, and retries obey Retry-After and the retry budget.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type CatalogErrorCode, isCatalogError } from '../../../generator/errors.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import {
  startUpstreamServer,
  type UpstreamMode,
  type UpstreamServer,
} from '../../helpers/upstream-server.js';
import { makeContext, makeUpstreamConfig } from './upstream-setup.js';

let server: UpstreamServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the fetch to fail');
}

const SOURCES = {
  shopify: '/products.json',
  woocommerce: '/wp-json/wc/store/v1/products',
  native: '/catalog.json',
} as const;

const FAULTS: { mode: UpstreamMode; code: CatalogErrorCode; status?: number }[] = [
  { mode: 'status500', code: 'UPSTREAM_HTTP', status: 500 },
  { mode: 'hang', code: 'UPSTREAM_TIMEOUT' },
  { mode: 'slow', code: 'UPSTREAM_TIMEOUT' },
  { mode: 'truncated', code: 'UPSTREAM_NETWORK' },
  { mode: 'reset', code: 'UPSTREAM_NETWORK' },
  { mode: 'wrongShape', code: 'UPSTREAM_SHAPE' },
  { mode: 'invalidJson', code: 'UPSTREAM_SHAPE' },
  { mode: 'oversized', code: 'UPSTREAM_TOO_LARGE' },
  { mode: 'oversizedChunked', code: 'UPSTREAM_TOO_LARGE' },
];

describe.each(Object.entries(SOURCES))('a %s upstream', (_format, path) => {
  // The test's own time limit (4 s) stands for "fails within the configured deadline" (1.5 s).
  test.each(FAULTS)(
    'when it answers with $mode then the fetch fails with $code',
    async ({ mode, code, status }) => {
      server = await startUpstreamServer({ mode, slowIntervalMs: 300 });
      const upstream = makeUpstreamConfig(`${server.url}${path}`, {
        timeout_ms: 1_500,
        request_timeout_ms: 600,
        retries: 1,
        max_response_bytes: 512 * 1024,
      });
      const error = await catchError(fetchUpstream(upstream, makeContext()));
      expect(isCatalogError(error) ? error.code : error).toBe(code);
      if (isCatalogError(error)) {
        expect(String(error.details.url)).toContain(server.url);
        if (status !== undefined) expect(error.details.status).toBe(status);
      }
    },
    4_000,
  );
});

describe('retries', () => {
  test('when the store answers 429 with Retry-After: 1 once then the fetch waits and succeeds', async () => {
    server = await startUpstreamServer({ mode: 'status429', faultCount: 1, retryAfter: '1' });
    const context = makeContext();
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), context);
    expect(result.products).toHaveLength(30);
    expect(server.requests).toHaveLength(2);
    expect(result.requests).toBe(2);
    // Retry-After is a lower bound: the retry must not come sooner than the server asked.
    const [first, second] = server.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  test('when the store answers 429 with a Retry-After past the deadline then it fails at once with UPSTREAM_HTTP 429', async () => {
    server = await startUpstreamServer({ mode: 'status429', retryAfter: '3600' });
    const error = await catchError(
      fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), makeContext()),
    );
    expect(isCatalogError(error, 'UPSTREAM_HTTP') && error.details.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  test('when Retry-After is an HTTP date then it is honoured like seconds', async () => {
    const soon = new Date(Date.now() + 1_000).toUTCString();
    server = await startUpstreamServer({ mode: 'status429', faultCount: 1, retryAfter: soon });
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/products.json`), makeContext());
    expect(result.products).toHaveLength(30);
    expect(server.requests).toHaveLength(2);
  });

  test('when the store keeps answering 500 then it is tried exactly 1 + retries times', async () => {
    server = await startUpstreamServer({ mode: 'status500' });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, { retries: 3 });
    const error = await catchError(fetchUpstream(upstream, makeContext()));
    expect(isCatalogError(error, 'UPSTREAM_HTTP')).toBe(true);
    expect(server.requests).toHaveLength(4);
  });

  test('when one page fails twice with 500 then the crawl still completes', async () => {
    server = await startUpstreamServer({ mode: 'status500', faultCount: 2, faultPage: 2 });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, { page_size: 10 });
    const result = await fetchUpstream(upstream, makeContext());
    expect(result.products).toHaveLength(30);
  });

  test('when the store answers 404 then it is not retried', async () => {
    server = await startUpstreamServer();
    const error = await catchError(
      fetchUpstream(makeUpstreamConfig(`${server.url}/nope.json`), makeContext()),
    );
    expect(isCatalogError(error, 'UPSTREAM_HTTP') && error.details.status).toBe(404);
    expect(server.requests).toHaveLength(1);
  });

  test('when the connection resets once mid-body then the retry succeeds', async () => {
    server = await startUpstreamServer({ mode: 'reset', faultCount: 1 });
    const result = await fetchUpstream(makeUpstreamConfig(`${server.url}/catalog.json`), makeContext());
    expect(result.products).toHaveLength(12);
  });
});

describe('the overall deadline', () => {
  test('when a store hangs longer than timeout_ms then the fetch fails with UPSTREAM_TIMEOUT even if requests may take longer', async () => {
    server = await startUpstreamServer({ mode: 'hang' });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, {
      timeout_ms: 800,
      request_timeout_ms: 60_000,
    });
    const error = await catchError(fetchUpstream(upstream, makeContext()));
    expect(isCatalogError(error, 'UPSTREAM_TIMEOUT') && error.details.timeoutMs).toBe(800);
  }, 3_000);

  test('when pages drip slowly then the deadline stops the whole crawl', async () => {
    server = await startUpstreamServer({ mode: 'slow', slowIntervalMs: 50, faultPage: 2 });
    const upstream = makeUpstreamConfig(`${server.url}/products.json`, {
      page_size: 10,
      timeout_ms: 1_000,
      request_timeout_ms: 60_000,
    });
    const error = await catchError(fetchUpstream(upstream, makeContext()));
    expect(isCatalogError(error) && error.code).toBe('UPSTREAM_TIMEOUT');
  }, 3_000);
});

describe('unreachable upstream', () => {
  test('when nothing listens on the port then the fetch fails with UPSTREAM_NETWORK', async () => {
    const closed = await startUpstreamServer();
    const url = `${closed.url}/products.json`;
    await closed.close();
    const error = await catchError(fetchUpstream(makeUpstreamConfig(url, { retries: 1 }), makeContext()));
    expect(isCatalogError(error) && error.code).toBe('UPSTREAM_NETWORK');
  });

  test('when the caller aborts then the fetch stops', async () => {
    server = await startUpstreamServer({ mode: 'hang' });
    const controller = new AbortController();
    const pending = catchError(
      fetchUpstream(
        makeUpstreamConfig(`${server.url}/products.json`, { timeout_ms: 60_000, request_timeout_ms: 60_000 }),
        {
          ...makeContext(),
          signal: controller.signal,
        },
      ),
    );
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const error = await pending;
    expect(isCatalogError(error, 'UPSTREAM_NETWORK') && error.details.cancelled).toBe(true);
  });
});
