/**
 * A loopback Shopify storefront for the fetch benchmark, run as its own process
 * (`node lib/scripts/bench/shopify-upstream.js --products 10000 --latency 20`) so the
 * crawler under test does not share its event loop. `/products.json?limit=&page=` answers
 * after a fixed latency per page, with the platform's page × limit ≤ 25,000 cap; pages are
 * serialised once up front so serving costs next to nothing. `/__reset?latency=ms` clears
 * the counters and sets the latency; `/__stats` reports the requests seen and the most
 * that were ever in flight at once. Prints `listening on <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { makeShopifyProducts, type ShopifyProduct } from '../../test/fixtures/upstream/make-products.js';

const PAGE_CAP = 25_000;

function readOptions(): { products: number; latencyMs: number } {
  const { values } = parseArgs({
    options: { products: { type: 'string', default: '10000' }, latency: { type: 'string', default: '20' } },
  });
  return { products: Number(values.products), latencyMs: Number(values.latency) };
}

function createPageCache(products: readonly ShopifyProduct[]): (limit: number, page: number) => string {
  const cache = new Map<string, string>();
  return (limit, page) => {
    const key = `${limit}:${page}`;
    let body = cache.get(key);
    if (body === undefined) {
      body = JSON.stringify({ products: products.slice((page - 1) * limit, page * limit) });
      cache.set(key, body);
    }
    return body;
  };
}

function main(): void {
  const { products: count, latencyMs: initialLatency } = readOptions();
  let latencyMs = initialLatency;
  const pageBody = createPageCache(makeShopifyProducts(count));
  for (let page = 1; page <= Math.ceil(count / 250) + 1; page++) pageBody(250, page);
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/__stats') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ requests, maxInFlight }));
      return;
    }
    if (url.pathname === '/__reset') {
      requests = 0;
      maxInFlight = 0;
      latencyMs = Number(url.searchParams.get('latency') ?? latencyMs);
      res.end('ok');
      return;
    }
    if (url.pathname !== '/products.json') {
      res.statusCode = 404;
      res.end();
      return;
    }
    requests += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const limit = Math.min(250, Math.max(1, Number(url.searchParams.get('limit') ?? '30') || 30));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
    setTimeout(() => {
      inFlight -= 1;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (page * limit > PAGE_CAP) {
        res.statusCode = 400;
        res.end('{"errors":{"page":"page * limit must not exceed 25000"}}');
        return;
      }
      res.end(pageBody(limit, page));
    }, latencyMs);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main();
