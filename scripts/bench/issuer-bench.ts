/**
 * The issuer's throughput: requests per second and p50/p99 latency at N connections for
 * discovery, JWKS, registration, the refresh_token grant (N rotation chains) and userinfo
 * with a bearer token, on SQLite and (when a database URL is given) PostgreSQL, with the
 * issuer's rate limit off. Each figure sits beside the same load against the peer
 * (oidc-provider on the same database) as a ratio. Tokens come from real authorizations
 * through each issuer's own forms (authorize-flow.ts).
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
import { type DatabaseKind, type IssuerKind, startIssuerTarget } from './issuer-targets.js';
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

const TARGETS: Record<Endpoint, { rps?: number; p99?: number; words: string }> = {
  discovery: { rps: 5_000, words: '≥ 5,000 req/s' },
  jwks: { rps: 5_000, words: '≥ 5,000 req/s' },
  userinfo: { rps: 3_000, words: '≥ 3,000 req/s' },
  refresh: { rps: 800, p99: 50, words: '≥ 800 req/s, p99 < 50 ms' },
  registration: { words: '(none; vs peer)' },
};

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

function specFor(endpoint: Endpoint, prepared: Prepared): LoadSpec | { skipped: string } {
  const { endpoints, clientId, tokens } = prepared;
  const first = tokens[0];
  const half = Math.floor(tokens.length / 2);
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
          warmupTokens: tokens.slice(0, half).map((set) => set.refresh_token),
          tokens: tokens.slice(half).map((set) => set.refresh_token),
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

async function measureIssuer(
  kind: IssuerKind,
  database: DatabaseKind,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Map<Endpoint, Outcome>> {
  const outcomes = new Map<Endpoint, Outcome>();
  const issuer = await startIssuerTarget(kind, database, options.databaseUrl);
  try {
    // Two sets of chains: one for the refresh warm-up, one for the measured run.
    const prepared = await prepare(issuer.url, options.connections * 2, issuer.credentials);
    if (prepared.problem) log(`issuer ${kind}/${database}: set-up incomplete: ${prepared.problem}`);
    const settings = { connections: options.connections, durationSeconds: options.durationSeconds };
    for (const endpoint of ENDPOINTS) {
      const spec = specFor(endpoint, prepared);
      if ('skipped' in spec) {
        outcomes.set(endpoint, spec);
        continue;
      }
      const figures = await runLoad(issuer.url, spec, settings);
      log(
        `issuer ${kind}/${database} ${endpoint}: ${Math.round(figures.rps)} req/s, p99 ${figures.p99} ms, ${figures.non2xx} non-2xx`,
      );
      outcomes.set(endpoint, figures);
    }
  } finally {
    await issuer.stop();
  }
  return outcomes;
}

function judgeOutcome(endpoint: Endpoint, outcome: Outcome): Verdict {
  if ('skipped' in outcome) return 'skipped';
  const target = TARGETS[endpoint];
  if (outcome.non2xx > outcome.requests * 0.01 || outcome.errors > 0) return 'miss';
  if (target.rps === undefined) return 'info';
  if (outcome.rps < target.rps) return 'miss';
  return target.p99 !== undefined && outcome.p99 >= target.p99 ? 'miss' : 'pass';
}

function issuerRow(
  endpoint: Endpoint,
  database: DatabaseKind,
  ours: Outcome,
  peer: Outcome | undefined,
): BenchRow {
  const measured = (o: Outcome | undefined) => (o && !('skipped' in o) ? o : undefined);
  const a = measured(ours);
  const b = measured(peer);
  const notes = [ours, peer].flatMap((o) => (o && 'skipped' in o ? [o.skipped] : []));
  if (a && a.non2xx > 0) notes.push(`ours answered ${a.non2xx} non-2xx of ${a.requests}`);
  if (b && b.non2xx > 0) notes.push(`peer answered ${b.non2xx} non-2xx of ${b.requests}`);
  return {
    section: 'issuer',
    name: `${endpoint} (${database})`,
    figures: {
      'req/s': a?.rps ?? null,
      'p50 ms': a?.p50 ?? null,
      'p99 ms': a?.p99 ?? null,
      'peer req/s': b?.rps ?? null,
      'peer p50': b?.p50 ?? null,
      'peer p99': b?.p99 ?? null,
      '× peer': a && b ? a.rps / b.rps : null,
    },
    target: TARGETS[endpoint].words,
    verdict: judgeOutcome(endpoint, ours),
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
    `issuer: ${options.connections} connections, ${options.durationSeconds} s each, rate limit off (--rate-limit 0)`,
  );
  for (const database of databases) {
    const ours = await measureIssuer('ours', database, options, log);
    const peer = options.noPeer ? undefined : await measureIssuer('peer', database, options, log);
    for (const endpoint of ENDPOINTS) {
      const outcome = ours.get(endpoint) ?? { skipped: 'not run' };
      rows.push(issuerRow(endpoint, database, outcome, peer?.get(endpoint)));
    }
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
