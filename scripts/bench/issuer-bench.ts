/**
 * The issuer under load against the peer (oidc-provider on the same database), both
 * running at once and taking turns endpoint by endpoint, round by round, so a change in
 * the machine's load hits both alike: discovery, JWKS, userinfo with a bearer token, the
 * refresh_token grant (N rotation chains) and registration, on SQLite and (when a
 * database URL is given) PostgreSQL, with the issuer's rate limit off. The figure that
 * counts is the server's CPU time per request (cpu-time.ts), with requests per second and
 * latency beside it. Tokens come from real authorizations through each issuer's own forms
 * (authorize-flow.ts).
 */
import {
  authorize,
  discover,
  type IssuerEndpoints,
  registerPublicClient,
  registrationBody,
  type TokenSet,
} from './authorize-flow.js';
import { median, runMeasured } from './child-process.js';
import {
  type DatabaseKind,
  type IssuerKind,
  type StartedIssuer,
  startIssuerTarget,
} from './issuer-targets.js';
import { type LoadFigures, type LoadSpec, runLoad } from './load.js';
import type { BenchOptions } from './options.js';
import { AUTH_CLI } from './paths.js';
import { type BenchRow, judge, type Verdict } from './results.js';

const ENDPOINTS = ['discovery', 'jwks', 'userinfo', 'refresh', 'registration'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** A measured figure, or why there is none. */
type Outcome = LoadFigures | { skipped: string };

interface Prepared {
  endpoints: IssuerEndpoints;
  clientId?: string;
  tokens: TokenSet[];
  problem?: string;
}

interface Target {
  kind: IssuerKind;
  issuer: StartedIssuer;
  prepared: Prepared;
  outcomes: Map<Endpoint, Outcome[]>;
}

/** Issue 14: CPU per request at or below the peer's everywhere, and the fixed documents ≤ 100 µs. */
const CPU_CEILING_US: Partial<Record<Endpoint, number>> = { discovery: 100, jwks: 100 };

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function prepare(
  url: string,
  chains: number,
  who: { email: string; password: string },
): Promise<Prepared> {
  const endpoints = await discover(url);
  const prepared: Prepared = { endpoints, tokens: [] };
  try {
    prepared.clientId = await registerPublicClient(endpoints);
    for (let chain = 0; chain < chains; chain++)
      prepared.tokens.push(await authorize(endpoints, prepared.clientId, who));
  } catch (error) {
    prepared.problem = error instanceof Error ? error.message.slice(0, 300) : String(error);
  }
  return prepared;
}

/** Each round of the refresh load spends its own chains: `connections` to warm up, as many to measure. */
function specFor(
  endpoint: Endpoint,
  prepared: Prepared,
  round: number,
  connections: number,
): LoadSpec | { skipped: string } {
  const { endpoints, clientId, tokens } = prepared;
  const first = tokens[0];
  const offset = round * connections * 2;
  switch (endpoint) {
    case 'discovery':
      return { method: 'GET', path: '/.well-known/openid-configuration' };
    case 'jwks':
      return { method: 'GET', path: pathOf(endpoints.jwks_uri) };
    case 'registration':
      if (!endpoints.registration_endpoint) return { skipped: 'no registration_endpoint' };
      return {
        method: 'POST',
        path: pathOf(endpoints.registration_endpoint),
        headers: { 'content-type': 'application/json' },
        body: registrationBody(),
      };
    case 'userinfo':
      if (!first) return { skipped: `no access token: ${prepared.problem ?? 'set-up failed'}` };
      return {
        method: 'GET',
        path: pathOf(endpoints.userinfo_endpoint),
        headers: { authorization: `Bearer ${first.access_token}` },
      };
    case 'refresh':
      if (!first || !clientId) return { skipped: `no refresh token: ${prepared.problem ?? 'set-up failed'}` };
      return {
        method: 'POST',
        path: pathOf(endpoints.token_endpoint),
        refreshChains: {
          warmupTokens: tokens.slice(offset, offset + connections).map((set) => set.refresh_token),
          tokens: tokens
            .slice(offset + connections, offset + connections * 2)
            .map((set) => set.refresh_token),
          formFor: (token) =>
            new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: token,
              client_id: clientId,
            }).toString(),
        },
      };
  }
}

function selected(options: BenchOptions): Endpoint[] {
  const wanted = options.endpoints;
  if (!wanted) return [...ENDPOINTS];
  const unknown = wanted.filter((name) => !(ENDPOINTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new TypeError(`--endpoints: unknown endpoint "${unknown.join(', ')}"`);
  return ENDPOINTS.filter((endpoint) => wanted.includes(endpoint));
}

async function startTarget(
  kind: IssuerKind,
  database: DatabaseKind,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Target> {
  const issuer = await startIssuerTarget(kind, database, options.databaseUrl, options.profileDir);
  try {
    // Each round's refresh load spends two sets of chains (warm-up and measured run).
    const prepared = await prepare(issuer.url, options.connections * 2 * options.rounds, issuer.credentials);
    if (prepared.problem) log(`issuer ${kind}/${database}: set-up incomplete: ${prepared.problem}`);
    return { kind, issuer, prepared, outcomes: new Map() };
  } catch (error) {
    await issuer.stop();
    throw error;
  }
}

async function measureTurn(
  target: Target,
  endpoint: Endpoint,
  round: number,
  database: DatabaseKind,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<void> {
  const spec = specFor(endpoint, target.prepared, round, options.connections);
  let outcome: Outcome;
  if ('skipped' in spec) outcome = spec;
  else {
    const figures = await runLoad(target.issuer.url, spec, {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      serverCpuMs: () => target.issuer.cpuMs(),
    });
    const cpu = figures.cpuUsPerRequest === null ? '?' : Math.round(figures.cpuUsPerRequest);
    log(
      `issuer ${target.kind}/${database} ${endpoint} round ${round + 1}: ${cpu} µs CPU/req, ${Math.round(figures.rps)} req/s, p99 ${figures.p99} ms, ${figures.non2xx} non-2xx`,
    );
    outcome = figures;
  }
  target.outcomes.set(endpoint, [...(target.outcomes.get(endpoint) ?? []), outcome]);
}

/** Ours and the peer in turns: every endpoint, every round, ours first then the peer. */
async function measurePair(
  database: DatabaseKind,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ ours: Target; peer: Target | undefined }> {
  const ours = await startTarget('ours', database, options, log);
  let peer: Target | undefined;
  try {
    peer = options.noPeer ? undefined : await startTarget('peer', database, options, log);
    for (const endpoint of selected(options)) {
      for (let round = 0; round < options.rounds; round++) {
        await measureTurn(ours, endpoint, round, database, options, log);
        if (peer) await measureTurn(peer, endpoint, round, database, options, log);
      }
    }
  } finally {
    await ours.issuer.stop();
    await peer?.issuer.stop();
  }
  return { ours, peer };
}

interface Pooled {
  /** CPU µs per request over every round (total CPU ÷ total requests). */
  cpuUs: number | null;
  /** The lowest and highest round's µs per request, as text ("301–308"). */
  cpuRange: string | null;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
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

function issuerRow(
  endpoint: Endpoint,
  database: DatabaseKind,
  ours: Target,
  peer: Target | undefined,
): BenchRow {
  const a = pool(ours.outcomes.get(endpoint)) ?? { skipped: 'not run' };
  const b = peer ? pool(peer.outcomes.get(endpoint)) : undefined;
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

/** `agent-auth --help`: the issuer CLI's start-up, held to the generator CLI's 150 ms. */
async function measureStartup(options: BenchOptions): Promise<BenchRow> {
  const times: number[] = [];
  for (let round = 0; round < Math.max(5, options.repeats); round++) {
    const run = await runMeasured(process.execPath, [AUTH_CLI, '--help']);
    if (run.exitCode !== 0) throw new Error(`agent-auth --help exited ${run.exitCode}: ${run.stderr}`);
    times.push(run.wallMs);
  }
  const ms = median(times);
  return {
    section: 'issuer',
    name: 'agent-auth --help (start-up)',
    figures: { 'median ms': ms, 'min ms': Math.min(...times), runs: times.length },
    target: '< 150 ms',
    verdict: judge(ms, 150, false),
  };
}

export async function benchIssuers(options: BenchOptions, log: (line: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [await measureStartup(options)];
  const databases: DatabaseKind[] = options.databaseUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  log(
    `issuer: ${options.connections} connections, ${options.durationSeconds} s each, ${options.rounds} round(s) in turns with the peer, rate limit off (--rate-limit 0)`,
  );
  for (const database of databases) {
    const { ours, peer } = await measurePair(database, options, log);
    for (const endpoint of selected(options)) rows.push(issuerRow(endpoint, database, ours, peer));
  }
  if (!options.databaseUrl) {
    rows.push({
      section: 'issuer',
      name: 'PostgreSQL rows',
      figures: {},
      verdict: 'skipped',
      note: 'set BENCH_DATABASE_URL or TEST_DATABASE_URL (postgres://…) to run them',
    });
  }
  return rows;
}
