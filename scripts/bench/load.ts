/**
 * One load test: autocannon, in this process, against a server in another process on
 * loopback, for a fixed number of connections and seconds after a 1-second warm-up that
 * is thrown away. The refresh case keeps chains of single-use tokens: every request takes
 * a refresh token from a shared queue just before it is written and puts back the one
 * the response rotated in, so N connections drive N independent rotation chains. When the
 * settings can read the server's CPU time, it is read just before and just after the
 * measured run, so the figure per request leaves out the warm-up and the server's start.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';

export interface LoadSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * For the refresh grant: the first refresh token of each chain, for the warm-up and for
   * the measured run apart (a run that stops drops the tokens rotated in by the responses
   * still in flight, ending those chains), and the form around a token.
   */
  refreshChains?: { warmupTokens: string[]; tokens: string[]; formFor(token: string): string };
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU time (user + system) during the measured run, in ms; null when unreadable. */
  cpuMs: number | null;
  /** `cpuMs` per request served, in µs. */
  cpuUsPerRequest: number | null;
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  /** Reads the server process's CPU time so far (ms). */
  serverCpuMs?: () => Promise<number | null>;
}

function refreshRequest(spec: LoadSpec, warmup: boolean): AutocannonRequest {
  const chains = spec.refreshChains;
  if (!chains) throw new TypeError('refreshRequest needs refreshChains');
  const queue = [...(warmup ? chains.warmupTokens : chains.tokens)];
  return {
    method: 'POST',
    path: spec.path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (request) => ({ ...request, body: chains.formFor(queue.shift() ?? 'exhausted-chain') }),
    onResponse: (status, body) => {
      if (status !== 200) return;
      const parsed = JSON.parse(body) as { refresh_token?: unknown };
      if (typeof parsed.refresh_token === 'string') queue.push(parsed.refresh_token);
    },
  };
}

async function fire(
  url: string,
  spec: LoadSpec,
  request: AutocannonRequest | undefined,
  settings: LoadSettings,
  seconds: number,
) {
  return autocannon({
    url: `${url}${spec.path}`,
    connections: settings.connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    method: spec.method,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(request ? { requests: [request] } : {}),
  });
}

export async function runLoad(url: string, spec: LoadSpec, settings: LoadSettings): Promise<LoadFigures> {
  const chains = spec.refreshChains !== undefined;
  await fire(url, spec, chains ? refreshRequest(spec, true) : undefined, settings, 1);
  const cpuBefore = (await settings.serverCpuMs?.()) ?? null;
  const result = await fire(
    url,
    spec,
    chains ? refreshRequest(spec, false) : undefined,
    settings,
    settings.durationSeconds,
  );
  const cpuAfter = (await settings.serverCpuMs?.()) ?? null;
  const requests = result['2xx'] + result.non2xx;
  const cpuMs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
  return {
    cpuMs,
    cpuUsPerRequest: cpuMs !== null && requests > 0 ? (cpuMs * 1000) / requests : null,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
