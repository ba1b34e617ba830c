/**
 * One isolate's view of the partitioned search index: `node --expose-gc
 * search-probe-child.js <dir> <count>` opens the index a folder holds (search-build-child.js
 * wrote it) through file readers on disk, as the Node shell does, and asks a mixed set of
 * questions one after another: words (whole names, one word, two words, prefixes, typos),
 * price ranges alone (±$1, some "bought now" only, one in ten "from $x up"), words with a
 * price range, and the next pages of earlier questions (a kept answer and a page of ids).
 * Each step is `search` plus the ids of a page of 10, timed in wall and CPU time
 * (`process.cpuUsage`, every thread of the process). Then the heap and array buffers,
 * without and after a full collection. Prints JSON. Bench only.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSearchIndex, type SearchQuery } from '../../live/search-index.js';
import { openPartitionStore } from '../../live/search-partitions.js';
import { pricesOf, searchRowAt, wordOf } from './search-rows.js';

type Kind = 'words' | 'price' | 'words+price' | 'next page';

const QUESTIONS = 400;
const WARM_UP = 40;
const PAGE = 10;

const [dir = '', countText = '0'] = process.argv.slice(2);
const count = Number(countText);

/** A seeded generator, so every run asks the same questions. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function makeQuestions(
  total: number,
  random: () => number,
): { kind: Kind; query: SearchQuery; offset: number }[] {
  const product = () => Math.floor(random() * count);
  const nameWord = (at: number) => searchRowAt(at).fields[0].split(' ')[Math.floor(random() * 3)] ?? '';
  const words = (): string => {
    const at = product();
    const pick = Math.floor(random() * 5);
    if (pick === 0) return searchRowAt(at).fields[0];
    if (pick === 1) return nameWord(at);
    if (pick === 2) return `${nameWord(at)} ${nameWord(product())}`;
    if (pick === 3) return nameWord(at).slice(0, 4);
    const word = nameWord(at);
    return word.length >= 5 ? `${word.slice(0, 2)}x${word.slice(3)}` : wordOf(Math.floor(random() * 20_000));
  };
  const price = (index: number): { price: SearchQuery['price']; available?: boolean } => {
    const at = pricesOf(product())[Math.floor(random() * 3)] ?? 500;
    if (index % 10 === 9) return { price: { min: at } };
    if (index % 3 === 2) return { price: { min: at - 100, max: at + 100 }, available: true };
    return { price: { min: at - 100, max: at + 100 } };
  };
  const asked: SearchQuery[] = [];
  return Array.from({ length: total }, (_, index) => {
    const kind = (['words', 'price', 'words+price', 'next page'] as const)[index % 4] as Kind;
    if (kind === 'next page' && asked.length > 0) {
      const query = asked[Math.floor(random() * asked.length)] as SearchQuery;
      return { kind, query, offset: PAGE * (1 + Math.floor(random() * 4)) };
    }
    const query: SearchQuery =
      kind === 'words'
        ? { text: words() }
        : kind === 'price'
          ? price(index)
          : { text: words(), ...price(index) };
    asked.push(query);
    return { kind, query, offset: 0 };
  });
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const heap = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

collect();
const baseline = heap();
// As the Node shell reads them: the JSON files as text, the `.bin` files as bytes.
const read = {
  text: (name: string) => readFile(join(dir, name), 'utf8').catch(() => undefined),
  bytes: (name: string) => readFile(join(dir, name)).catch(() => undefined),
};
let cpu = process.cpuUsage();
let started = performance.now();
const index = openSearchIndex(await openPartitionStore(read));
const first = await index.search({ text: wordOf(7) });
await index.productIds(first.subarray(0, PAGE));
const coldMs = performance.now() - started;
const coldCpu = process.cpuUsage(cpu);

const random = seeded(count);
for (const { query, offset } of makeQuestions(WARM_UP, random)) {
  const found = await index.search(query);
  await index.productIds(found.subarray(offset, offset + PAGE));
}
const byKind = new Map<Kind, { wall: number[]; cpu: number[] }>();
let matches = 0;
for (const { kind, query, offset } of makeQuestions(QUESTIONS, random)) {
  cpu = process.cpuUsage();
  started = performance.now();
  const found = await index.search(query);
  await index.productIds(found.subarray(offset, offset + PAGE));
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  matches += found.length;
  const times = byKind.get(kind) ?? { wall: [], cpu: [] };
  byKind.set(kind, times);
  times.wall.push(wall);
  times.cpu.push((used.user + used.system) / 1000);
}
const afterQueries = heap();
collect();
const afterCollection = heap();
const all = [...byKind.values()];
const wallAll = all.flatMap((times) => times.wall);
const cpuAll = all.flatMap((times) => times.cpu);
process.stdout.write(
  `${JSON.stringify({
    coldMs,
    coldCpuMs: (coldCpu.user + coldCpu.system) / 1000,
    p50: percentile(wallAll, 50),
    p95: percentile(wallAll, 95),
    cpuP50: percentile(cpuAll, 50),
    cpuP95: percentile(cpuAll, 95),
    meanMatches: Math.round(matches / QUESTIONS),
    kinds: Object.fromEntries(
      [...byKind].map(([kind, times]) => [
        kind,
        {
          cpuP50: percentile(times.cpu, 50),
          cpuP95: percentile(times.cpu, 95),
          p95: percentile(times.wall, 95),
        },
      ]),
    ),
    baselineMB: baseline / 1e6,
    heapMB: afterQueries / 1e6,
    heapAfterGcMB: afterCollection / 1e6,
  })}\n`,
);
