/**
 * What every generator run pays before it does any work, on the sample merchant (15
 * products, so nearly all of a run is fixed cost): `agent-catalog --help`, a fresh build
 * of the sample into an empty folder, against `node -e 0` (Node's own start, which no
 * code of ours can cut), and a no-change rebuild. Issue 14's "fixed start-up" is the fresh
 * build's wall time minus Node's own.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type MeasuredRun, median, runMeasured } from './child-process.js';
import type { BenchOptions } from './options.js';
import { CATALOG_CLI, makeScratchDir, REPO_ROOT } from './paths.js';
import { type BenchRow, judge } from './results.js';

const NODE = process.execPath;
const START_UP_LIMIT_MS = 300;

export function failure(what: string, run: { exitCode: number | null; stderr: string }): Error {
  return new Error(`${what} exited with ${run.exitCode}: ${run.stderr.slice(0, 2000)}`);
}

async function timed(what: string, args: readonly string[], cwd = REPO_ROOT): Promise<MeasuredRun> {
  const run = await runMeasured(NODE, args, { cwd });
  if (run.exitCode !== 0) throw failure(what, run);
  return run;
}

function summary(runs: readonly MeasuredRun[]) {
  const cpu = runs.map((run) => run.cpuMs);
  return {
    wall: median(runs.map((run) => run.wallMs)),
    min: Math.min(...runs.map((run) => run.wallMs)),
    cpu: cpu.every((ms): ms is number => ms !== null) ? median(cpu) : null,
  };
}

async function measureHelp(options: BenchOptions): Promise<BenchRow> {
  const runs: MeasuredRun[] = [];
  for (let round = 0; round < Math.max(5, options.repeats); round++)
    runs.push(await timed('agent-catalog --help', [CATALOG_CLI, '--help']));
  const { wall, min, cpu } = summary(runs);
  return {
    section: 'generator',
    name: 'agent-catalog --help (start-up)',
    figures: { 'median ms': wall, 'min ms': min, 'CPU ms': cpu, runs: runs.length },
    target: '< 150 ms',
    verdict: judge(wall, 150, false),
  };
}

/** Fresh builds of the sample and `node -e 0`, taking turns; then no-change rebuilds. */
async function measureSample(options: BenchOptions): Promise<BenchRow[]> {
  const dir = await makeScratchDir('sample');
  try {
    const bare: MeasuredRun[] = [];
    const fresh: MeasuredRun[] = [];
    const rounds = Math.max(5, options.repeats);
    for (let round = 0; round < rounds; round++) {
      bare.push(await timed('node -e 0', ['-e', '0']));
      const out = join(dir, `fresh-${round}`);
      fresh.push(await timed('sample build', [CATALOG_CLI, 'build', '--out', out, '--quiet']));
      if (round < rounds - 1) await rm(out, { recursive: true, force: true });
    }
    const again: MeasuredRun[] = [];
    const last = join(dir, `fresh-${rounds - 1}`);
    for (let round = 0; round < Math.max(3, options.repeats); round++)
      again.push(await timed('sample rebuild', [CATALOG_CLI, 'build', '--out', last, '--quiet']));
    const node = summary(bare);
    const build = summary(fresh);
    const rebuild = summary(again);
    const fixed = build.wall - node.wall;
    return [
      {
        section: 'generator',
        name: 'fixed start-up (sample build − node -e 0)',
        figures: {
          'median ms': fixed,
          'build ms': build.wall,
          'build CPU ms': build.cpu,
          'node ms': node.wall,
          'node CPU ms': node.cpu,
          runs: fresh.length,
        },
        target: `≤ ${START_UP_LIMIT_MS} ms`,
        verdict: judge(fixed, START_UP_LIMIT_MS, false),
      },
      {
        section: 'generator',
        name: 'no-change rebuild (sample merchant)',
        figures: {
          'median ms': rebuild.wall,
          'min ms': rebuild.min,
          'CPU ms': rebuild.cpu,
          runs: again.length,
        },
        target: '< 1,000 ms',
        verdict: judge(rebuild.wall, 1000, false),
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchStartup(options: BenchOptions): Promise<BenchRow[]> {
  return [await measureHelp(options), ...(await measureSample(options))];
}
