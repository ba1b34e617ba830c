/**
 * The one outbound call the webhook receiver makes: a `POST` to the rebuild URL from the
 * host's environment. A Netlify build hook or a Cloudflare Pages deploy hook takes an empty
 * JSON body (the URL itself is the secret); GitHub's `POST /repos/{owner}/{repo}/dispatches`
 * takes `{"event_type":"catalog-changed"}` with `Authorization: Bearer` (REST API,
 * "Create a repository dispatch event": 204 on success). Redirects are not followed (the
 * call goes to that URL only), each attempt has a timeout, and a failure that may pass (a
 * network error, a timeout, 429 or 5xx) is tried again a bounded number of times. Neither
 * the URL nor the token ever appears in an outcome.
 */

export const DISPATCH_EVENT_TYPE = 'catalog-changed';

export interface RebuildRequestTarget {
  url: URL;
  token: string | undefined;
}

export interface TriggerOptions {
  fetch?: typeof fetch;
  /** Per attempt. Default 5 s. */
  timeoutMs?: number;
  /** In all, the first included. Default 3. */
  attempts?: number;
  /** Before the second attempt; doubled for each further one. Default 500 ms. */
  backoffMs?: number;
}

export type TriggerOutcome =
  | { ok: true; status: number; attempts: number }
  | { ok: false; reason: string; attempts: number };

/** GitHub's dispatch endpoint (github.com's API or an Enterprise server's `/api/v3`). */
export function isGitHubDispatch(url: URL): boolean {
  return /\/repos\/[^/]+\/[^/]+\/dispatches$/.test(url.pathname);
}

function buildRequest(target: RebuildRequestTarget): RequestInit {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'agent-catalog-webhooks',
  };
  if (!isGitHubDispatch(target.url)) return { method: 'POST', headers, body: '{}' };
  headers.accept = 'application/vnd.github+json';
  headers['x-github-api-version'] = '2022-11-28';
  // The token goes to GitHub's dispatch endpoint only: a build hook needs none, and the
  // token must not reach a host it was not made for.
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  return { method: 'POST', headers, body: JSON.stringify({ event_type: DISPATCH_EVENT_TYPE }) };
}

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendRebuildTrigger(
  target: RebuildRequestTarget,
  options: TriggerOptions = {},
): Promise<TriggerOutcome> {
  const send = options.fetch ?? fetch;
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 5_000;
  let backoff = options.backoffMs ?? 500;
  let reason = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    if (attempt > 1) {
      await sleep(backoff);
      backoff *= 2;
    }
    try {
      const response = await send(target.url, {
        ...buildRequest(target),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is not needed; release the connection.
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300)
        return { ok: true, status: response.status, attempts: attempt };
      reason = `the rebuild URL answered ${response.status}`;
      if (response.status >= 300 && response.status < 400) reason += ' (a redirect, not followed)';
      if (!isRetryable(response.status)) return { ok: false, reason, attempts: attempt };
    } catch (error) {
      reason =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
          ? `the rebuild URL did not answer within ${timeoutMs} ms`
          : 'the rebuild URL could not be reached';
    }
  }
  return { ok: false, reason, attempts };
}
