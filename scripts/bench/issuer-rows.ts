/**
 * The issuer table's rows: every round of an endpoint pooled per issuer (total CPU over
 * total requests, with the lowest and highest round beside it), set against the peer's,
 * and judged by issue 14's targets: CPU per request at or below the peer's on every
 * endpoint, and at most 100 µs for the fixed documents (discovery, JWKS).
 */
import { median } from './child-process.js';
import type { DatabaseKind } from './issuer-targets.js';
import type { LoadFigures } from './load.js';
import { type BenchRow, judge, type Verdict } from './results.js';

export const ENDPOINTS = ['discovery', 'jwks', 'userinfo', 'refresh', 'registration'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** A measured figure, or why there is none. */
export type Outcome = LoadFigures | { skipped: string };

const CPU_CEILING_US: Partial<Record<Endpoint, number>> = { discovery: 100, jwks: 100 };

/** Every round of one endpoint on one issuer, taken together. */
interface Pooled extends Omit<LoadFigures, 'cpuMs' | 'cpuUsPerRequest'> {
  /** CPU µs per request over every round (total CPU ÷ total requests). */
  cpuUs: number | null;
  /** The lowest and highest round's µs per request, as text ("301–308"). */
  cpuRange: string | null;
}

function pool(outcomes: readonly Outcome[] | undefined): Pooled | { skipped: string } | undefined {
  if (!outcomes || outcomes.length === 0) return undefined;
  const measured = outcomes.filter((o): o is LoadFigures => !('skipped' in o));
  const skipped = outcomes.find((o): o is { skipped: string } => 'skipped' in o);
  if (measured.length === 0) return skipped ?? { skipped: 'not run' };
  const sum = (pick: (o: LoadFigures) => number) => measured.reduce((total, o) => total + pick(o), 0);
  const requests = sum((o) => o.requests);
  const perRound = measured.map((o) => o.cpuUsPerRequest);
  const known = perRound.filter((value): value is number => value !== null);
  const allKnown = known.length === perRound.length;
  const cpuMs = sum((o) => o.cpuMs ?? 0);
  const round = (value: number) => Math.round(value).toLocaleString('en-US');
  return {
    cpuUs: allKnown && requests > 0 ? (cpuMs * 1000) / requests : null,
    cpuRange: allKnown ? `${round(Math.min(...known))}–${round(Math.max(...known))}` : null,
    rps: sum((o) => o.rps) / measured.length,
    p50: median(measured.map((o) => o.p50)),
    p99: Math.max(...measured.map((o) => o.p99)),
    requests,
    non2xx: sum((o) => o.non2xx),
    errors: sum((o) => o.errors),
  };
}

function judgeCpu(endpoint: Endpoint, ours: Pooled, peer: Pooled | undefined): Verdict {
  if (ours.non2xx > ours.requests * 0.01 || ours.errors > 0 || ours.cpuUs === null) return 'miss';
  const ceiling = CPU_CEILING_US[endpoint];
  if (ceiling !== undefined && ours.cpuUs > ceiling) return 'miss';
  if (!peer || peer.cpuUs === null) return ceiling === undefined ? 'info' : 'pass';
  return judge(ours.cpuUs, peer.cpuUs, false);
}

export function issuerRow(
  endpoint: Endpoint,
  database: DatabaseKind,
  ours: readonly Outcome[] | undefined,
  peer: readonly Outcome[] | undefined,
): BenchRow {
  const a = pool(ours) ?? { skipped: 'not run' };
  const b = pool(peer);
  const measured = (o: Pooled | { skipped: string } | undefined) => (o && !('skipped' in o) ? o : undefined);
  const mine = measured(a);
  const theirs = measured(b);
  const notes = [a, b].flatMap((o) => (o && 'skipped' in o ? [o.skipped] : []));
  if (mine && mine.non2xx > 0) notes.push(`ours answered ${mine.non2xx} non-2xx of ${mine.requests}`);
  if (theirs && theirs.non2xx > 0) notes.push(`peer answered ${theirs.non2xx} non-2xx of ${theirs.requests}`);
  const ceiling = CPU_CEILING_US[endpoint];
  return {
    section: 'issuer',
    name: `${endpoint} (${database})`,
    figures: {
      'µs CPU/req': mine?.cpuUs ?? null,
      rounds: mine?.cpuRange ?? null,
      'peer µs CPU/req': theirs?.cpuUs ?? null,
      'peer rounds': theirs?.cpuRange ?? null,
      'cost ÷ peer': mine?.cpuUs != null && theirs?.cpuUs != null ? mine.cpuUs / theirs.cpuUs : null,
      'req/s': mine?.rps ?? null,
      'peer req/s': theirs?.rps ?? null,
      'p50 ms': mine?.p50 ?? null,
      'p99 ms': mine?.p99 ?? null,
      'peer p99': theirs?.p99 ?? null,
    },
    target: ceiling === undefined ? '≤ peer µs' : `≤ ${ceiling} µs and ≤ peer`,
    verdict: mine ? judgeCpu(endpoint, mine, theirs) : 'skipped',
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}
