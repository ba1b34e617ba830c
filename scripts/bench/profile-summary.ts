/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: the top
 * functions by self time and, with `--by file`, the top files (node_modules folded into
 * their package), so a missed issuer or generator target can name its cost. Usage:
 * `node lib/scripts/bench/profile-summary.js <file.cpuprofile> [--by function|file] [--top 25]`.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function locate(node: ProfileNode, byFile: boolean): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  const where = packageMatch?.[1] ?? url.replace(/^.*\/(lib\/)/, '$1').replace(/^file:\/\//, '');
  if (byFile) return where || '(native)';
  return `${functionName || '(anonymous)'}  ${where}${where ? `:${lineNumber + 1}` : ''}`;
}

function summarise(profile: CpuProfile, byFile: boolean): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const key = locate(node, byFile);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return totals;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { by: { type: 'string', default: 'function' }, top: { type: 'string', default: '25' } },
  });
  const [file] = positionals;
  if (!file)
    throw new TypeError('usage: profile-summary.js <file.cpuprofile> [--by function|file] [--top N]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const totals = summarise(profile, values.by === 'file');
  const all = [...totals.values()].reduce((sum, value) => sum + value, 0);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  for (const [key, micros] of rows) {
    process.stdout.write(
      `${((100 * micros) / all).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}\n`,
    );
  }
}

await main();
