/**
 * The generator's cost per run: for each catalog size N, the real build (the CLI process,
 * every document and validation included) against the seven-document baseline script on
 * the same Shopify file (baseline.ts), wall time, user + system CPU and peak RSS from the
 * same runs, taking turns so drift in the machine's load hits both alike; the start-up
 * rows come from generator-startup.ts. Issue 14's targets: at 10,000 products the build
 * takes at most 2.5× the baseline and stays under 300 MB, and from 10,000 to 50,000 its
 * peak memory grows no faster than its output.
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, runMeasured } from './child-process.js';
import { countBundleFiles, type FileCount, fileBudgetRow } from './file-budget.js';
import { benchStartup, failure } from './generator-startup.js';
import { writeShopifyFixture } from './make-shopify-products.js';
import { measureOneChange, type OneChangeFigures, oneChangeRow } from './one-change.js';
import type { BenchOptions } from './options.js';
import { benchScript, CATALOG_CLI, makeScratchDir, REPO_ROOT } from './paths.js';
import { type BenchRow, judge } from './results.js';

interface SizeFigures {
  size: number;
  baselineMs: number;
  buildMs: number;
  baselineCpuMs: number | null;
  buildCpuMs: number | null;
  baselineRssMB: number | null;
  buildRssMB: number | null;
  /** Bytes of the build's output folder. */
  outputBytes: number;
  /** Its files, fullest folder and shards (the file budget). */
  fileCount: FileCount;
  /** The rebuild after one price changed, against a cold build with the cache. */
  oneChange: OneChangeFigures;
}

const TIME_LIMIT = 2.5;
const RSS_LIMIT_MB = 300;
const MB = 1_000_000;

/** Bytes under `dir`, every file counted. */
export async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let total = 0;
  for (const entry of entries)
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

const NODE = process.execPath;

/** Fewer repetitions for the big catalogs: one 50,000 build takes a while. */
function repeatsFor(size: number, options: BenchOptions): number {
  if (size >= 50_000) return Math.min(options.repeats, 2);
  if (size >= 10_000) return Math.min(options.repeats, 3);
  return options.repeats;
}

/** The sample config with the fixture as upstream and no merchant content (none matches the fixture). */
export async function writeBenchConfig(dir: string, fixture: string): Promise<string> {
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

interface Run {
  ms: number;
  cpu: number | null;
  rss: number | null;
}

function toRun(run: { wallMs: number; cpuMs: number | null; peakRssMiB: number | null }): Run {
  return {
    ms: run.wallMs,
    cpu: run.cpuMs,
    rss: run.peakRssMiB === null ? null : (run.peakRssMiB * 1024 * 1024) / MB,
  };
}

function medianOrNull(values: readonly (number | null)[]): number | null {
  return values.every((value): value is number => value !== null) ? median(values) : null;
}

function peak(runs: readonly Run[]): number | null {
  return runs.some((r) => r.rss === null) ? null : Math.max(...runs.map((r) => r.rss ?? 0));
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
    const baseline: Run[] = [];
    const build: Run[] = [];
    let outputBytes = 0;
    let fileCount: FileCount = { files: 0, fullestFolder: { path: '', files: 0 }, shards: {} };
    for (let round = 0; round < repeatsFor(size, options); round++) {
      const baseOut = join(dir, `baseline-${round}`);
      const base = await runMeasured(NODE, [benchScript('baseline.js'), fixture, baseOut]);
      if (base.exitCode !== 0) throw failure('baseline', base);
      baseline.push(toRun(base));
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
      build.push(toRun(run));
      outputBytes = await folderBytes(out);
      fileCount = await countBundleFiles(out);
      await rm(out, { recursive: true, force: true });
    }
    log(`generator: N=${size}, one price changed`);
    const oneChange = await measureOneChange(size, dir, config, fixture);
    return {
      size,
      oneChange,
      baselineMs: median(baseline.map((r) => r.ms)),
      buildMs: median(build.map((r) => r.ms)),
      baselineCpuMs: medianOrNull(baseline.map((r) => r.cpu)),
      buildCpuMs: medianOrNull(build.map((r) => r.cpu)),
      baselineRssMB: peak(baseline),
      buildRssMB: peak(build),
      outputBytes,
      fileCount,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function sizeRow(figures: SizeFigures): BenchRow {
  const ratio = figures.buildMs / figures.baselineMs;
  const cpuRatio =
    figures.buildCpuMs !== null && figures.baselineCpuMs !== null
      ? figures.buildCpuMs / figures.baselineCpuMs
      : null;
  const atTarget = figures.size === 10_000;
  const rssOk = figures.buildRssMB !== null && figures.buildRssMB <= RSS_LIMIT_MB;
  const timeVerdict = judge(ratio, TIME_LIMIT, false);
  return {
    section: 'generator',
    name: `build N=${figures.size.toLocaleString('en-US')}`,
    figures: {
      'baseline ms': figures.baselineMs,
      'build ms': figures.buildMs,
      'time ×': ratio,
      'baseline CPU ms': figures.baselineCpuMs,
      'build CPU ms': figures.buildCpuMs,
      'CPU ×': cpuRatio,
      'baseline MB': figures.baselineRssMB,
      'build MB': figures.buildRssMB,
      'output MB': figures.outputBytes / MB,
    },
    ...(atTarget ? { target: `≤ ${TIME_LIMIT}× baseline; ≤ ${RSS_LIMIT_MB} MB` } : {}),
    verdict: atTarget ? (timeVerdict === 'pass' && rssOk ? 'pass' : 'miss') : 'info',
  };
}

/** From 10,000 to 50,000 products peak memory may grow no faster than the output does. */
function memoryGrowthRow(all: readonly SizeFigures[]): BenchRow[] {
  const mid = all.find((f) => f.size === 10_000);
  const large = all.find((f) => f.size === 50_000);
  if (!mid || !large || mid.buildRssMB === null || large.buildRssMB === null) return [];
  const rssGrowth = large.buildRssMB / mid.buildRssMB;
  const outputGrowth = large.outputBytes / mid.outputBytes;
  return [
    {
      section: 'generator',
      name: 'memory growth vs output growth (50k ÷ 10k)',
      figures: { 'RSS ×': rssGrowth, 'output ×': outputGrowth, ratio: rssGrowth / outputGrowth },
      target: 'RSS × ≤ output ×',
      verdict: judge(rssGrowth, outputGrowth, false),
    },
  ];
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

export async function benchGenerator(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = await benchStartup(options);
  const all: SizeFigures[] = [];
  for (const size of options.sizes) {
    try {
      const figures = await measureSize(size, options, log);
      all.push(figures);
      rows.push(sizeRow(figures), oneChangeRow(figures.oneChange));
      if (figures.size === 10_000) rows.push(fileBudgetRow(figures.size, figures.fileCount));
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
  rows.push(...linearityRows(all), ...memoryGrowthRow(all));
  return rows;
}
