/**
 * Writes the partitioned search index of `count` synthetic products (search-rows.ts) into
 * a folder, as the generator's writer does for a bundle, without building the bundle:
 * `node --max-old-space-size=8192 search-build-child.js <dir> <count>`. The index is built
 * in memory first (its typed arrays, a few hundred MB at 1,000,000 products), then each
 * file is made and written before the next; the handler never holds it. Prints the files'
 * figures as JSON. Bench only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSearchIndexOfRows, type SearchRow } from '../../live/search-index-file.js';
import { searchPartitions } from '../../live/search-partitions-file.js';
import { searchRowAt } from './search-rows.js';

function* rowsUpTo(count: number): Generator<SearchRow> {
  for (let product = 0; product < count; product += 1) yield searchRowAt(product);
}

const [dir = '', countText = '0'] = process.argv.slice(2);
const count = Number(countText);
let started = performance.now();
const partitions = searchPartitions(buildSearchIndexOfRows(count, rowsUpTo(count)));
const files = partitions.files();
const folders = new Map<string, number>();
let bytes = 0;
let largest = 0;
let rootBytes = 0;
// The time to build the index and make its files, not to write them.
let built = 0;
for (let next = files.next(); !next.done; next = files.next()) {
  built += performance.now() - started;
  const file = next.value;
  const size = Buffer.byteLength(file.body);
  bytes += size;
  largest = Math.max(largest, size);
  if (file.name === 'root.json') rootBytes = size;
  const folder = dirname(file.name);
  folders.set(folder, (folders.get(folder) ?? 0) + 1);
  await mkdir(join(dir, folder), { recursive: true });
  await writeFile(join(dir, file.name), file.body);
  started = performance.now();
}
process.stdout.write(
  `${JSON.stringify({
    files: partitions.length,
    bytes,
    largest,
    largestFolder: Math.max(...folders.values()),
    rootBytes,
    buildMs: built,
  })}
`,
);
