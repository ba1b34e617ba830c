/**
 * The HTTP side of the agent-readiness probes: one small client that fetches a path of the
 * target (the site, or the server standing in for it) with the headers a probe asks for,
 * reads at most a megabyte of body, never follows a redirect on its own and never throws:
 * a failed request is a response with status 0 and the reason.
 */
export interface ProbeResponse {
  status: number;
  headers: Headers;
  body: string;
  /** Why the request failed, when status is 0. */
  error?: string;
}

export type ProbeFetch = (path: string, headers?: Record<string, string>) => Promise<ProbeResponse>;

const MAX_BODY = 1024 * 1024;

export function createProbeFetch(base: string, timeoutMs: number): ProbeFetch {
  const cache = new Map<string, Promise<ProbeResponse>>();
  return (path, headers = {}) => {
    const key = `${path}\n${JSON.stringify(headers)}`;
    let pending = cache.get(key);
    if (pending === undefined) {
      pending = fetchOnce(`${base}${path}`, headers, timeoutMs);
      cache.set(key, pending);
    }
    return pending;
  };
}

async function fetchOnce(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ProbeResponse> {
  try {
    const response = await fetch(url, {
      headers: { 'user-agent': 'agent-catalog-check', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text.slice(0, MAX_BODY) };
  } catch (error) {
    return {
      status: 0,
      headers: new Headers(),
      body: '',
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The `type/subtype` of a Content-Type, lower case. */
export function essenceOf(response: ProbeResponse): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function jsonOf(response: ProbeResponse): unknown {
  if (response.status !== 200) return undefined;
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    return undefined;
  }
}
