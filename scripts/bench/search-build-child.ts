/**
 * Writes the partitioned search index of `count` synthetic products (search-rows.ts) into
 * a folder, as the generator's writer does for a bundle, without building the bundle:
 * `node --max-old-space-size=8192 search-build-child.js <dir> <count>`. The whole index is
 * built in memory first (about 3 GB at 1,000,000 products, hence the larger heap); the
 * handler never holds it. Prints the files' figures as JSON. Bench only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSearchIndexOfRows, type SearchRow } from '../../live/search-index-file.js';
import { buildSearchPartitions } from '../../live/search-partitions-file.js';
import { searchRowAt } from './search-rows.js';

function* rowsUpTo(count: number): Generator<SearchRow> {
  for (let product = 0; product < count; product += 1) yield searchRowAt(product);
}

const [dir = '', countText = '0'] = process.argv.slice(2);
const count = Number(countText);
const started = performance.now();
const files = buildSearchPartitions(buildSearchIndexOfRows(count, rowsUpTo(count)));
const built = performance.now() - started;
const folders = new Map<string, number>();
let bytes = 0;
let largest = 0;
for (const file of files) {
  const size = Buffer.byteLength(file.body);
  bytes += size;
  largest = Math.max(largest, size);
  const folder = dirname(file.name);
  folders.set(folder, (folders.get(folder) ?? 0) + 1);
  await mkdir(join(dir, folder), { recursive: true });
  await writeFile(join(dir, file.name), file.body);
}
const root = files.find((file) => file.name === 'root.json');
process.stdout.write(
  `${JSON.stringify({
    files: files.length,
    bytes,
    largest,
    largestFolder: Math.max(...folders.values()),
    rootBytes: root ? Buffer.byteLength(root.body) : 0,
    buildMs: built,
  })}\n`,
);
