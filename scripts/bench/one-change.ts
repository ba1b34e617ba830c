/**
 * What a 15-minute run costs when one product changed: a cold build (it creates the build
 * cache), then one variant's price raised in the store file and the build run again. The
 * rebuild's wall time, CPU and peak RSS against the cold build's, and what a host would
 * upload: the files whose bytes changed (the digest Netlify and Cloudflare decide uploads
 * by) and their size. Issue 29's targets: at most 0.2× the cold build, 30 files and 64 MiB.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runMeasured } from './child-process.js';
import { failure } from './generator-startup.js';
import { CATALOG_CLI } from './paths.js';
import { raiseOnePrice } from './price-change.js';
import { allPass, type BenchRow, judge } from './results.js';

const MIB = 1024 * 1024;
const NODE = process.execPath;

export const ONE_CHANGE_TARGETS = { time: 0.2, files: 30, mib: 64 } as const;

/** Every file of the bundle at `dir`, by path: its size and SHA-256. */
async function fileDigests(dir: string): Promise<Map<string, { size: number; digest: string }>> {
  const files = new Map<string, { size: number; digest: string }>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    files.set(path.slice(dir.length + 1), {
      size: bytes.length,
      digest: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return files;
}

/** The CLI's arguments for a build of `config` into `out`: the cold one, and each rebuild that reuses its cache. */
export function buildArgs(config: string, out: string): string[] {
  return [CATALOG_CLI, 'build', '--config', config, '--out', out, '--allow-shrink', '--quiet'];
}

export interface OneChangeFigures {
  size: number;
  coldMs: number;
  coldCpuMs: number | null;
  coldRssMB: number | null;
  changeMs: number;
  changeCpuMs: number | null;
  changeRssMB: number | null;
  filesChanged: number;
  mibChanged: number;
  /** The rebuilt bundle: its files, its `.part` files and its largest file. */
  filesInBundle: number;
  partsInBundle: number;
  largestMiB: number;
}

/** A cold build into `<dir>/dist-change`, one price raised, and the rebuild measured. */
export async function measureOneChange(
  size: number,
  dir: string,
  config: string,
  fixture: string,
): Promise<OneChangeFigures> {
  const out = join(dir, 'dist-change');
  const args = buildArgs(config, out);
  try {
    const cold = await runMeasured(NODE, args, { cwd: dir });
    if (cold.exitCode !== 0) throw failure(`cold build N=${size}`, cold);
    const before = await fileDigests(out);
    await raiseOnePrice(fixture);
    const change = await runMeasured(NODE, args, { cwd: dir });
    if (change.exitCode !== 0) throw failure(`one-change build N=${size}`, change);
    const after = await fileDigests(out);
    let filesChanged = 0;
    let bytesChanged = 0;
    for (const [path, file] of after) {
      if (before.get(path)?.digest === file.digest) continue;
      filesChanged += 1;
      bytesChanged += file.size;
    }
    const mb = (mib: number | null) => (mib === null ? null : (mib * MIB) / 1_000_000);
    return {
      size,
      coldMs: cold.wallMs,
      coldCpuMs: cold.cpuMs,
      coldRssMB: mb(cold.peakRssMiB),
      changeMs: change.wallMs,
      changeCpuMs: change.cpuMs,
      changeRssMB: mb(change.peakRssMiB),
      filesChanged,
      mibChanged: bytesChanged / MIB,
      filesInBundle: after.size,
      partsInBundle: [...after.keys()].filter((path) => path.endsWith('.part')).length,
      largestMiB: Math.max(0, ...[...after.values()].map((file) => file.size)) / MIB,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(join(dir, '.dist-change-cache'), { recursive: true, force: true });
  }
}

export function oneChangeRow(figures: OneChangeFigures): BenchRow {
  const ratio = figures.changeMs / figures.coldMs;
  const verdicts = [
    judge(ratio, ONE_CHANGE_TARGETS.time, false),
    judge(figures.filesChanged, ONE_CHANGE_TARGETS.files, false),
    judge(figures.mibChanged, ONE_CHANGE_TARGETS.mib, false),
  ];
  return {
    section: 'generator',
    name: `one price changed N=${figures.size.toLocaleString('en-US')}`,
    figures: {
      'cold ms': figures.coldMs,
      'change ms': figures.changeMs,
      'time ×': ratio,
      'cold CPU ms': figures.coldCpuMs,
      'change CPU ms': figures.changeCpuMs,
      'cold MB': figures.coldRssMB,
      'change MB': figures.changeRssMB,
      'files changed': figures.filesChanged,
      'MiB changed': figures.mibChanged,
      'files in bundle': figures.filesInBundle,
      'parts in bundle': figures.partsInBundle,
      'largest file MiB': figures.largestMiB,
    },
    target: `≤ ${ONE_CHANGE_TARGETS.time}× cold; ≤ ${ONE_CHANGE_TARGETS.files} files; ≤ ${ONE_CHANGE_TARGETS.mib} MiB`,
    verdict: allPass(verdicts),
  };
}
