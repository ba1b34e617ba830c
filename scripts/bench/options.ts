/**
 * The flags of `npm run bench -- …`, parsed with node:util (the benchmark is a script,
 * not part of the shipped CLI). Defaults give the full run the issue asks for; `--quick`
 * shrinks sizes and durations for a smoke run while the harness is being worked on.
 */
import { parseArgs } from 'node:util';

export type BenchPart =
  | 'generator'
  | 'read'
  | 'feeds'
  | 'fetch'
  | 'issuer'
  | 'live'
  | 'search'
  | 'hosts'
  | 'hooks';

export interface BenchOptions {
  parts: BenchPart[];
  sizes: number[];
  quick: boolean;
  /** Seconds each load test runs (after a 1 s warm-up). */
  durationSeconds: number;
  connections: number;
  /** Repetitions of each process timing (the median is reported). */
  repeats: number;
  /** Load runs per issuer endpoint and issuer, ours and the peer's taking turns. */
  rounds: number;
  /** Where the JSON report goes. */
  out: string;
  /** Wait up to this many seconds for the 1-minute load average to fall under `quietLoad`. */
  waitQuietSeconds: number;
  quietLoad: number;
  /** postgres:// URL of a server where the bench may create and drop a database, if any. */
  databaseUrl: string | undefined;
  /** Skip the peer (oidc-provider) runs. */
  noPeer: boolean;
  /** Start both issuers under `node --cpu-prof`, writing their profiles here. */
  profileDir: string | undefined;
  /** Only these issuer endpoints (default: all). */
  endpoints: string[] | undefined;
}

export const USAGE = `usage: npm run bench -- [--only generator|read|feeds|fetch|issuer|live|search|hosts|hooks[,…]] [--sizes 100,1000] [--quick]
  [--duration <s>] [--connections <n>] [--repeats <n>] [--rounds <n>] [--out <file>]
  [--wait-quiet <s>] [--quiet-load <load>] [--no-peer] [--profile-dir <dir>]
  [--endpoints discovery,jwks,userinfo,refresh,registration]
PostgreSQL rows run when BENCH_DATABASE_URL or TEST_DATABASE_URL is set.`;

const PARTS: readonly BenchPart[] = [
  'generator',
  'read',
  'feeds',
  'fetch',
  'issuer',
  'live',
  'search',
  'hosts',
  'hooks',
];
const FULL_SIZES = [100, 1_000, 10_000, 50_000];

function parsePositive(name: string, text: string, integer = true): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`--${name}: expected a ${integer ? 'whole ' : ''}number, got "${text}"`);
  }
  return value;
}

function parseParts(text: string | undefined): BenchPart[] {
  if (text === undefined) return [...PARTS];
  const parts = text.split(',').map((part) => part.trim());
  for (const part of parts) {
    if (!PARTS.includes(part as BenchPart)) throw new TypeError(`--only: unknown part "${part}"`);
  }
  return parts as BenchPart[];
}

export function parseBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      only: { type: 'string' },
      sizes: { type: 'string' },
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string', default: '16' },
      repeats: { type: 'string' },
      rounds: { type: 'string' },
      out: { type: 'string', default: 'bench-results/latest.json' },
      'wait-quiet': { type: 'string', default: '0' },
      'quiet-load': { type: 'string', default: '1.0' },
      'no-peer': { type: 'boolean', default: false },
      'profile-dir': { type: 'string' },
      endpoints: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new TypeError(USAGE);
  const quick = values.quick ?? false;
  const sizes = values.sizes
    ? values.sizes.split(',').map((size) => parsePositive('sizes', size.trim()))
    : quick
      ? [100, 1_000]
      : FULL_SIZES;
  return {
    parts: parseParts(values.only),
    sizes,
    quick,
    durationSeconds: values.duration ? parsePositive('duration', values.duration, false) : quick ? 2 : 10,
    connections: parsePositive('connections', values.connections ?? '16'),
    repeats: values.repeats ? Math.max(1, parsePositive('repeats', values.repeats)) : quick ? 3 : 7,
    rounds: values.rounds ? Math.max(1, parsePositive('rounds', values.rounds)) : quick ? 1 : 2,
    out: values.out ?? 'bench-results/latest.json',
    waitQuietSeconds: parsePositive('wait-quiet', values['wait-quiet'] ?? '0'),
    quietLoad: parsePositive('quiet-load', values['quiet-load'] ?? '1.0', false),
    databaseUrl: env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || undefined,
    noPeer: values['no-peer'] ?? false,
    profileDir: values['profile-dir'],
    endpoints: values.endpoints?.split(',').map((name) => name.trim()),
  };
}
