/**
 * A real upstream store on 127.0.0.1 (port 0) for tests: Shopify-shaped `/products.json`
 * (limit/page, with the platform's 25,000 page × limit cap), WooCommerce Store API
 * `/wp-json/wc/store/v1/products` (per_page/page, X-WP-Total and X-WP-TotalPages) and a
 * native `/catalog.json`. Fault modes reproduce what real stores and networks do (5xx,
 * 429 with Retry-After, hangs, dribbling bodies, truncation, resets, wrong shapes,
 * oversized bodies); by default a fault hits every request, `faultCount` limits it to
 * the first N faulty-eligible requests and `faultPage` to one page number. The server
 * records every request and the highest number of requests it had in flight at once.
 * Any path under `/moved/` answers 301 to the same path without that prefix.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  makeNativeCatalog,
  makeShopifyProducts,
  makeWooProducts,
  type ShopifyProduct,
  type WooProduct,
} from '../fixtures/upstream/make-products.js';
import {
  intParam,
  type Page,
  pageShopify,
  pageWoo,
  WOO_PATH,
  wrongShapeFor,
} from '../fixtures/upstream/pages.js';

export {
  expectShopifyProduct,
  expectWooProduct,
  formatCents,
  makeNativeCatalog,
  makeShopifyProducts,
  makeWooProducts,
  type ShopifyProduct,
  type WooProduct,
} from '../fixtures/upstream/make-products.js';
export { SHOPIFY_PAGE_CAP } from '../fixtures/upstream/pages.js';

export type UpstreamMode =
  | 'ok'
  | 'status500'
  | 'status429'
  | 'hang'
  | 'slow'
  | 'truncated'
  | 'reset'
  | 'wrongShape'
  | 'invalidJson'
  | 'oversized'
  | 'oversizedChunked'
  | 'empty'
  | 'duplicatePages';

export interface UpstreamServerOptions {
  /** Shopify products served at /products.json (default: 30 generated ones). */
  shopify?: ShopifyProduct[];
  /** WooCommerce products served at /wp-json/wc/store/v1/products (default: 30). */
  woo?: WooProduct[];
  /** The document served at /catalog.json (default: a 12-product native catalog). */
  native?: unknown;
  mode?: UpstreamMode;
  /** Only the first N eligible requests get the fault, then answers are normal (default: all). */
  faultCount?: number;
  /** Only requests for this page number get the fault (native has page 1). */
  faultPage?: number;
  /** Retry-After sent with 429 (default "1"). */
  retryAfter?: string;
  /** Delay before answering each request, in ms, or a function of the page number. */
  latencyMs?: number | ((page: number) => number);
  /** Size of the body in the oversized modes (default 2 MiB). */
  oversizedBytes?: number;
  /** Interval between dripped bytes in `slow` mode (default 200 ms). */
  slowIntervalMs?: number;
  /** Leave out X-WP-Total and X-WP-TotalPages, as some proxies do. */
  omitTotalPages?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  page: number;
  /** Date.now() when the request arrived (for lower-bound checks such as Retry-After). */
  receivedAt: number;
}

export interface UpstreamServer {
  /** Origin, no trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  readonly maxInFlight: number;
  setMode(mode: UpstreamMode, options?: Pick<UpstreamServerOptions, 'faultCount' | 'faultPage'>): void;
  close(): Promise<void>;
}

export async function startUpstreamServer(options: UpstreamServerOptions = {}): Promise<UpstreamServer> {
  const shopify = options.shopify ?? makeShopifyProducts(30);
  const woo = options.woo ?? makeWooProducts(30);
  const native = options.native ?? makeNativeCatalog(12);
  let mode: UpstreamMode = options.mode ?? 'ok';
  let faultCount = options.faultCount ?? Number.POSITIVE_INFINITY;
  let faultPage = options.faultPage;
  let faultsServed = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  function later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  }

  function normalPage(path: string, query: URLSearchParams): Page {
    const empty = mode === 'empty';
    const duplicate = mode === 'duplicatePages';
    if (path === '/products.json') return pageShopify(empty ? [] : shopify, query, duplicate);
    if (path === WOO_PATH) {
      const page = pageWoo(empty ? [] : woo, query, duplicate);
      return options.omitTotalPages ? { ...page, headers: {} } : page;
    }
    if (path === '/catalog.json') {
      const body =
        empty && typeof native === 'object' && native !== null
          ? { ...(native as Record<string, unknown>), count: 0, products: [] }
          : native;
      return { status: 200, headers: {}, body };
    }
    return { status: 404, headers: {}, body: { error: 'not found' } };
  }

  function sendJson(res: ServerResponse, page: Page): void {
    const text = JSON.stringify(page.body);
    res.writeHead(page.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...page.headers,
    });
    res.end(text);
  }

  function sendFault(res: ServerResponse, path: string, page: Page): void {
    const full = Buffer.from(JSON.stringify(page.body));
    switch (mode) {
      case 'status500':
        sendJson(res, { status: 500, headers: {}, body: { errors: 'Internal Server Error' } });
        return;
      case 'status429':
        sendJson(res, {
          status: 429,
          headers: { 'retry-after': options.retryAfter ?? '1' },
          body: { errors: 'Too Many Requests' },
        });
        return;
      case 'hang':
        return;
      case 'wrongShape':
        sendJson(res, { status: 200, headers: page.headers, body: wrongShapeFor(path) });
        return;
      case 'invalidJson':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"products": [{"id": 1, "title": "Green Glow",');
        return;
      case 'oversized':
      case 'oversizedChunked': {
        const size = options.oversizedBytes ?? 2 * 1024 * 1024;
        const padding = 'x'.repeat(Math.max(0, size));
        const body = `{"products":[],"padding":"${padding}"}`;
        const headers: Record<string, string | number> = { 'content-type': 'application/json' };
        if (mode === 'oversized') headers['content-length'] = Buffer.byteLength(body);
        res.writeHead(200, headers);
        res.end(body);
        return;
      }
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': full.length + 100 });
        res.write(full.subarray(0, Math.floor(full.length / 2)), () => res.socket?.end());
        return;
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': full.length });
        res.write(full.subarray(0, Math.floor(full.length / 2)), () => res.socket?.resetAndDestroy());
        return;
      case 'slow':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': full.length });
        dripBytes(res, full, 0);
        return;
      default:
        sendJson(res, page);
        return;
    }
  }

  function dripBytes(res: ServerResponse, body: Buffer, offset: number): void {
    if (res.destroyed || offset >= body.length) {
      res.end();
      return;
    }
    res.write(body.subarray(offset, offset + 1));
    later(options.slowIntervalMs ?? 200, () => dripBytes(res, body, offset + 1));
  }

  function isFaulty(page: number): boolean {
    const healthyModes: UpstreamMode[] = ['ok', 'empty', 'duplicatePages'];
    if (healthyModes.includes(mode)) return false;
    if (faultPage !== undefined && page !== faultPage) return false;
    if (faultsServed >= faultCount) return false;
    faultsServed += 1;
    return true;
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = Math.max(1, intParam(url.searchParams, 'page', 1));
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      page,
      receivedAt: Date.now(),
    });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    const latency =
      typeof options.latencyMs === 'function' ? options.latencyMs(page) : (options.latencyMs ?? 0);
    const answer = (): void => {
      // A store that moved: /moved/<path> answers 301 to <path>, query kept.
      if (url.pathname.startsWith('/moved/')) {
        res.writeHead(301, { location: `${url.pathname.slice('/moved'.length)}${url.search}` });
        res.end();
        return;
      }
      const normal = normalPage(url.pathname, url.searchParams);
      if (normal.status === 200 && isFaulty(page)) sendFault(res, url.pathname, normal);
      else sendJson(res, normal);
    };
    if (latency > 0) later(latency, answer);
    else answer();
  }

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    setMode(next, faults = {}) {
      mode = next;
      faultCount = faults.faultCount ?? Number.POSITIVE_INFINITY;
      faultPage = faults.faultPage;
      faultsServed = 0;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging and dripping responses would keep close() waiting forever.
        server.closeAllConnections();
      });
    },
  };
}
