/**
 * The generator's cost per run: for each catalog size N, the real build (the CLI process,
 * every document and validation included) against the baseline script on the same
 * Shopify file, wall time and peak RSS from the same run, interleaved so drift in the
 * machine's load hits both alike; then the CLI's start-up (`--help`) and a no-change
 * rebuild of the sample merchant.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, runMeasured } from './child-process.js';
import { writeShopifyFixture } from './make-shopify-products.js';
import type { BenchOptions } from './options.js';
import { benchScript, CATALOG_CLI, makeScratchDir, REPO_ROOT } from './paths.js';
import { type BenchRow, judge } from './results.js';

interface SizeFigures {
  size: number;
  baselineMs: number;
  buildMs: number;
  baselineRssMiB: number | null;
  buildRssMiB: number | null;
}

const NODE = process.execPath;

/** Fewer repetitions for the big catalogs: one 50,000 build takes a while. */
function repeatsFor(size: number, options: BenchOptions): number {
  if (size >= 50_000) return Math.min(options.repeats, 2);
  if (size >= 10_000) return Math.min(options.repeats, 3);
  return options.repeats;
}

/** The sample config with the fixture as upstream and no merchant content (none matches the fixture). */
async function writeBenchConfig(dir: string, fixture: string): Promise<string> {
  const config = JSON.parse(await readFile(join(REPO_ROOT, 'catalog.config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // One page holding the whole catalog: 50,000 products are about 47 MiB, past the
  // default 20 MiB cap on an upstream response.
  config.upstream = { format: 'shopify', source: fixture, max_response_bytes: 512 * 1024 * 1024 };
  // A configured content_dir must exist, and the sample's content matches none of the fixture's products.
  delete config.content_dir;
  const path = join(dir, 'catalog.config.json');
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

function failure(what: string, run: { exitCode: number | null; stderr: string }): Error {
  return new Error(`${what} exited with ${run.exitCode}: ${run.stderr.slice(0, 2000)}`);
}

async function measureSize(
  size: number,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<SizeFigures> {
  const dir = await makeScratchDir(`gen-${size}`);
  try {
    const fixture = join(dir, 'products.json');
    const bytes = await writeShopifyFixture(fixture, size);
    const config = await writeBenchConfig(dir, fixture);
    log(`generator: N=${size} (${(bytes / 1024 / 1024).toFixed(1)} MiB of products.json)`);
    const baseline: { ms: number; rss: number | null }[] = [];
    const build: { ms: number; rss: number | null }[] = [];
    for (let round = 0; round < repeatsFor(size, options); round++) {
      const baseOut = join(dir, `baseline-${round}`);
      const base = await runMeasured(NODE, [benchScript('baseline.js'), fixture, baseOut]);
      if (base.exitCode !== 0) throw failure('baseline', base);
      baseline.push({ ms: base.wallMs, rss: base.peakRssMiB });
      await rm(baseOut, { recursive: true, force: true });
      const out = join(dir, `dist-${round}`);
      const args = [
        CATALOG_CLI,
        'build',
        '--config',
        config,
        '--source',
        fixture,
        '--source-format',
        'shopify',
      ];
      const run = await runMeasured(NODE, [...args, '--out', out, '--allow-shrink', '--quiet'], { cwd: dir });
      if (run.exitCode !== 0) throw failure(`build N=${size}`, run);
      build.push({ ms: run.wallMs, rss: run.peakRssMiB });
      await rm(out, { recursive: true, force: true });
    }
    const peak = (runs: { rss: number | null }[]): number | null =>
      runs.some((r) => r.rss === null) ? null : Math.max(...runs.map((r) => r.rss ?? 0));
    return {
      size,
      baselineMs: median(baseline.map((r) => r.ms)),
      buildMs: median(build.map((r) => r.ms)),
      baselineRssMiB: peak(baseline),
      buildRssMiB: peak(build),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function sizeRow(figures: SizeFigures): BenchRow {
  const ratio = figures.buildMs / figures.baselineMs;
  const atTarget = figures.size === 10_000;
  const rssOk = figures.buildRssMiB !== null && figures.buildRssMiB < 300;
  const timeVerdict = judge(ratio, 3, false);
  return {
    section: 'generator',
    name: `build N=${figures.size.toLocaleString('en-US')}`,
    figures: {
      'baseline ms': figures.baselineMs,
      'build ms': figures.buildMs,
      'time ×': ratio,
      'µs/product': (figures.buildMs * 1000) / figures.size,
      'baseline MiB': figures.baselineRssMiB,
      'build MiB': figures.buildRssMiB,
      'RSS ×':
        figures.buildRssMiB !== null && figures.baselineRssMiB !== null
          ? figures.buildRssMiB / figures.baselineRssMiB
          : null,
    },
    ...(atTarget ? { target: '≤ 3× baseline; < 300 MiB' } : {}),
    verdict: atTarget ? (timeVerdict === 'pass' && rssOk ? 'pass' : 'miss') : 'info',
  };
}

function linearityRows(all: readonly SizeFigures[]): BenchRow[] {
  const at = (size: number) => all.find((f) => f.size === size);
  const small = at(1_000);
  const mid = at(10_000);
  const large = at(50_000);
  if (!small || !large) return [];
  const perProduct = (f: SizeFigures) => f.buildMs / f.size;
  const ratio = perProduct(large) / perProduct(small);
  const rows: BenchRow[] = [
    {
      section: 'generator',
      name: 'linear growth (per product, 50k vs 1k)',
      figures: {
        'µs/product 1k': perProduct(small) * 1000,
        'µs/product 50k': perProduct(large) * 1000,
        ratio,
      },
      target: '≤ 1.5×',
      verdict: judge(ratio, 1.5, false),
    },
  ];
  if (mid) {
    // The marginal cost, with the fixed start-up taken out: slope 10k→50k against 1k→10k.
    const low = (mid.buildMs - small.buildMs) / (mid.size - small.size);
    const high = (large.buildMs - mid.buildMs) / (large.size - mid.size);
    rows.push({
      section: 'generator',
      name: 'marginal cost (slope 10k→50k vs 1k→10k)',
      figures: { 'µs/product 1k': low * 1000, 'µs/product 50k': high * 1000, ratio: high / low },
      verdict: 'info',
      note: 'start-up excluded: the steadier measure of growth',
    });
  }
  return rows;
}

async function measureHelp(options: BenchOptions): Promise<BenchRow> {
  const times: number[] = [];
  for (let round = 0; round < Math.max(5, options.repeats); round++) {
    const run = await runMeasured(NODE, [CATALOG_CLI, '--help']);
    if (run.exitCode !== 0) throw failure('agent-catalog --help', run);
    times.push(run.wallMs);
  }
  const ms = median(times);
  return {
    section: 'generator',
    name: 'agent-catalog --help (start-up)',
    figures: { 'median ms': ms, 'min ms': Math.min(...times), runs: times.length },
    target: '< 150 ms',
    verdict: judge(ms, 150, false),
  };
}

async function measureRebuild(options: BenchOptions): Promise<BenchRow> {
  const dir = await makeScratchDir('rebuild');
  try {
    const out = join(dir, 'dist');
    const args = [CATALOG_CLI, 'build', '--out', out, '--quiet'];
    const first = await runMeasured(NODE, args, { cwd: REPO_ROOT });
    if (first.exitCode !== 0) throw failure('sample build', first);
    const times: number[] = [];
    for (let round = 0; round < Math.max(3, options.repeats); round++) {
      const again = await runMeasured(NODE, args, { cwd: REPO_ROOT });
      if (again.exitCode !== 0) throw failure('sample rebuild', again);
      times.push(again.wallMs);
    }
    const ms = median(times);
    return {
      section: 'generator',
      name: 'no-change rebuild (sample merchant)',
      figures: {
        'first ms': first.wallMs,
        'median ms': ms,
        'min ms': Math.min(...times),
        runs: times.length,
      },
      target: '< 1,000 ms',
      verdict: judge(ms, 1000, false),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchGenerator(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [await measureHelp(options), await measureRebuild(options)];
  const all: SizeFigures[] = [];
  for (const size of options.sizes) {
    try {
      const figures = await measureSize(size, options, log);
      all.push(figures);
      rows.push(sizeRow(figures));
    } catch (error) {
      const note = (error instanceof Error ? error.message : String(error)).slice(0, 400);
      rows.push({
        section: 'generator',
        name: `build N=${size.toLocaleString('en-US')}`,
        figures: {},
        verdict: 'miss',
        note,
      });
    }
  }
  rows.push(...linearityRows(all));
  return rows;
}
