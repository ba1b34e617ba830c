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
import { ENDPOINTS, type Endpoint, issuerRow, type Outcome } from './issuer-rows.js';
import {
  type DatabaseKind,
  type IssuerKind,
  type StartedIssuer,
  startIssuerTarget,
} from './issuer-targets.js';
import { type LoadSpec, runLoad } from './load.js';
import type { BenchOptions } from './options.js';
import { AUTH_CLI } from './paths.js';
import { type BenchRow, judge } from './results.js';

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
    for (const endpoint of selected(options))
      rows.push(issuerRow(endpoint, database, ours.outcomes.get(endpoint), peer?.outcomes.get(endpoint)));
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
