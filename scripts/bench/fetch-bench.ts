/**
 * Upstream fetch: the generator's real Shopify crawler (fetchUpstream with the default
 * politeness settings of generator/config.ts) against a loopback storefront in another
 * process. 10,000 products at 250 a page is 40 full pages plus the short one that ends
 * the crawl; at 20 ms a page, one after another, that is at least 40 × 20 ms. The same
 * crawl with no latency gives the CPU cost of reading and normalising the pages, so the
 * difference between the two is what the latency added: with overlapping requests it is
 * a fraction of the sequential floor. The server also reports the most requests it saw
 * in flight at once, which must stay within max_concurrency.
 */
import { upstreamSchema } from '../../generator/config-sections.js';
import { silentLogger } from '../../generator/logger.js';
import { fetchUpstream } from '../../generator/sources/index.js';
import { median, type RunningServer, startServer } from './child-process.js';
import type { BenchOptions } from './options.js';
import { benchScript } from './paths.js';
import type { BenchRow } from './results.js';

const PRODUCTS = 10_000;
const PAGE_SIZE = 250;
const LATENCY_MS = 20;

interface CrawlFigures {
  ms: number;
  requests: number;
  maxInFlight: number;
  products: number;
}

async function crawl(server: RunningServer, latencyMs: number, rounds: number): Promise<CrawlFigures> {
  const upstream = upstreamSchema.parse({ format: 'shopify', source: server.url });
  const times: number[] = [];
  const figures: CrawlFigures = { ms: 0, requests: 0, maxInFlight: 0, products: 0 };
  for (let round = 0; round < rounds; round++) {
    await fetch(`${server.url}/__reset?latency=${latencyMs}`).then((response) => response.text());
    const started = performance.now();
    const result = await fetchUpstream(upstream, {
      configDir: process.cwd(),
      siteUrl: 'https://pomona-juice.example',
      currency: 'USD',
      logger: silentLogger,
      userAgent: 'agent-catalog-bench',
    });
    times.push(performance.now() - started);
    const stats = (await (await fetch(`${server.url}/__stats`)).json()) as CrawlFigures;
    figures.requests = stats.requests;
    figures.maxInFlight = Math.max(figures.maxInFlight, stats.maxInFlight);
    figures.products = result.products.length;
  }
  figures.ms = median(times);
  return figures;
}

export async function benchFetch(options: BenchOptions, log: (line: string) => void): Promise<BenchRow[]> {
  const server = await startServer(process.execPath, [
    benchScript('shopify-upstream.js'),
    '--products',
    String(PRODUCTS),
  ]);
  try {
    const rounds = Math.max(3, Math.min(options.repeats, 5));
    const { max_concurrency: maxConcurrency } = upstreamSchema.parse({ source: server.url });
    await crawl(server, 0, 1); // warm-up: JIT and connection pool, not counted
    const cpu = await crawl(server, 0, rounds);
    const slow = await crawl(server, LATENCY_MS, rounds);
    log(`fetch: ${slow.products} products in ${slow.requests} requests`);
    const fullPages = Math.ceil(PRODUCTS / PAGE_SIZE);
    const floor = fullPages * LATENCY_MS;
    const added = slow.ms - cpu.ms;
    const overlapped =
      added < floor &&
      slow.maxInFlight > 1 &&
      slow.maxInFlight <= maxConcurrency &&
      slow.products === PRODUCTS;
    return [
      {
        section: 'fetch',
        name: `${fullPages} pages, no latency (CPU cost)`,
        figures: { requests: cpu.requests, 'median ms': cpu.ms, 'max in flight': cpu.maxInFlight },
        verdict: 'info',
      },
      {
        section: 'fetch',
        name: `${fullPages} pages × ${LATENCY_MS} ms`,
        figures: {
          requests: slow.requests,
          'median ms': slow.ms,
          'added by latency ms': added,
          'sequential floor ms': floor,
          'added / floor': added / floor,
          'max in flight': slow.maxInFlight,
          max_concurrency: maxConcurrency,
        },
        target: 'added < floor; in flight ≤ max_concurrency',
        verdict: overlapped ? 'pass' : 'miss',
        note: `${slow.products.toLocaleString('en-US')} products read and normalised; ${slow.requests} requests stay under the ${upstreamSchema.parse({ source: server.url }).requests_per_minute}/min politeness cap`,
      },
    ];
  } finally {
    await server.stop();
  }
}
