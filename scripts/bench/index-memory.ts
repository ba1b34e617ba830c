/**
 * What the live search index's builder keeps of a catalog (issue 29): builds the index of N
 * of the tests' Shopify products (test/fixtures/upstream/make-products.ts, mapped as the
 * build maps them, each a fresh object read once as from the store on disk) and cuts it
 * into its partition files, one file asked for at a time as the bundle's writer asks. Run
 * as `node --expose-gc lib/scripts/bench/index-memory.js <count>`; prints, as JSON, the heap
 * plus external memory (ArrayBuffers, external strings) after full collections at the end
 * of the one pass over the rows, once the index is whole, and the largest while its files
 * are cut, over the start and per product, and a digest of the files' names and bodies
 * (the same for every builder that writes the same index). Bench only.
 */
import { createHash } from 'node:crypto';
import { mapShopifyProduct } from '../../generator/normalise/shopify.js';
import { buildSearchIndexOfRows, type SearchRow, searchRowOf } from '../../live/search-index-file.js';
import { searchPartitions } from '../../live/search-partitions-file.js';
import { makeShopifyProduct } from '../../test/fixtures/upstream/make-products.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new TypeError('run with node --expose-gc');

/** Heap used and external memory after full collections (freed ArrayBuffers are counted until swept). */
function retained(): number {
  for (let round = 0; round < 3; round += 1) collect?.();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };
const count = Number(process.argv[2] ?? '20000');
const start = retained();
const figures: Record<string, number | string> = { count };

function* rows(): Generator<SearchRow> {
  for (let index = 0; index < count; index += 1) {
    const outcome = mapShopifyProduct(makeShopifyProduct(index), context);
    if (!outcome.ok) throw new TypeError(`product ${index}: ${outcome.rejected.reason}`);
    yield searchRowOf(outcome.product.record);
  }
  // The consumer asks for a row past the last once the last is in: the end of the pass.
  figures.pass = retained() - start;
}

const index = buildSearchIndexOfRows(count, rows());
figures.whole = retained() - start;
const digest = createHash('sha256');
let files = 0;
let cutting = 0;
for (const file of searchPartitions(index).files()) {
  digest.update(`${file.name}\n`).update(file.body).update('\n');
  files += 1;
  if (files % 8 === 0) cutting = Math.max(cutting, retained() - start);
}
figures.cutting = cutting;
for (const stage of ['pass', 'whole', 'cutting'])
  figures[`${stage}PerProduct`] = Math.round(Number(figures[stage]) / count);
figures.files = files;
figures.digest = digest.digest('hex');
figures.maxRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify(figures)}\n`);
