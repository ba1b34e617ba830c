/**
 * Why a site could not be reached at all, in the words a person needs ("connection
 * refused", "no such host"), read from the error undici's `fetch` rejects with: a
 * `TypeError('fetch failed')` whose `cause` carries the system or undici error `code`,
 * or the `TimeoutError` of the request's abort signal. `check <url>` stops with this one
 * line instead of reporting every document as `fetch failed` (issue 24).
 */

/** Short causes by error code, first match along the cause chain wins. */
const CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up (temporary DNS failure)',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The person-readable cause of a failed request, e.g. "connection refused". */
export function describeFetchFailure(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = codeOf(current);
    const cause = code === undefined ? undefined : CAUSES[code];
    if (cause !== undefined) return cause;
    if (current instanceof Error && current.name === 'TimeoutError') return 'no answer in time (timeout)';
    current = current instanceof Error ? current.cause : undefined;
  }
  const last = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
  return last?.message ?? String(error);
}

/** Loopback targets are almost always a local preview that is not running (yet). */
export function unreachableHint(target: string): string {
  const host = URL.canParse(target) ? new URL(target).hostname : '';
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return loopback ? 'is npm run preview running?' : 'is the address right, and is the site up?';
}
