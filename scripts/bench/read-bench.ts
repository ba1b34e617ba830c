/**
 * The upstream read (issue 29, item 1): a Shopify-shaped file of N products read and
 * normalised, in a child process each, wall time, user + system CPU and peak RSS. Three
 * ways: the `{"products": [...]}` document with every record held (what the build does
 * today), the same with each batch's records dropped (the stream's own cost), and the same
 * products as JSON Lines, dropped. The million-product file (1.36 GB) is larger than one
 * JavaScript string, so before the streamed read it could not be read at all. The held run
 * gets a larger heap: a million records take about 4.4 GB until they go to an on-disk store.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeShopifyFixture } from '../../test/fixtures/upstream/write-products.js';
import { runMeasured } from './child-process.js';
import type { BenchOptions } from './options.js';
import { benchScript, makeScratchDir } from './paths.js';
import type { BenchRow } from './results.js';

const MODES = [
  { name: 'document, records held', lines: false, mode: 'held' },
  { name: 'document, records dropped', lines: false, mode: 'dropped' },
  { name: 'JSON Lines, records dropped', lines: true, mode: 'dropped' },
] as const;

/** The sizes of the checks; `--quick` reads 10,000 products instead. */
function sizesFor(options: BenchOptions): number[] {
  return options.quick ? [10_000] : [100_000, 1_000_000];
}

async function measureRead(file: string, size: number, mode: (typeof MODES)[number]): Promise<BenchRow> {
  const heap = mode.mode === 'held' ? ['--max-old-space-size=12288'] : [];
  const run = await runMeasured(process.execPath, [...heap, benchScript('read-child.js'), file, mode.mode], {
    timeoutMs: 3_600_000,
  });
  const mb = (await stat(file)).size / 1_000_000;
  const name = `read N=${size} (${mode.name})`;
  if (run.exitCode !== 0) {
    return { section: 'read', name, figures: {}, verdict: 'miss', note: run.stderr.slice(-500) };
  }
  const counts = JSON.parse(run.stdout) as { products: number };
  const cpuS = run.cpuMs === null ? null : run.cpuMs / 1000;
  return {
    section: 'read',
    name,
    figures: {
      'file MB': Math.round(mb),
      products: counts.products,
      'wall s': run.wallMs / 1000,
      'CPU s': cpuS,
      'MB per CPU s': cpuS === null ? null : mb / cpuS,
      'peak RSS MiB': run.peakRssMiB,
    },
    verdict: counts.products === size ? 'info' : 'miss',
  };
}

export async function benchRead(options: BenchOptions, log: (line: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = await makeScratchDir('read');
  try {
    for (const size of sizesFor(options)) {
      const files = {
        document: join(dir, `products-${size}.json`),
        lines: join(dir, `products-${size}.jsonl`),
      };
      log(`read: writing ${size} products as a document and as JSON Lines`);
      await writeShopifyFixture(files.document, size);
      await writeShopifyFixture(files.lines, size, { jsonLines: true });
      for (const mode of MODES) {
        log(`read: N=${size}, ${mode.name}`);
        rows.push(await measureRead(mode.lines ? files.lines : files.document, size, mode));
      }
      await rm(files.document, { force: true });
      await rm(files.lines, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
