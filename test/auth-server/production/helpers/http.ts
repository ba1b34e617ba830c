/**
 * Small HTTP helpers for the production tests: a form POST and a JSON POST that return
 * status, headers and the parsed body, a client registration, and a browser that can move
 * between two instances of the issuer while keeping one cookie jar (as a browser behind a
 * load balancer does: cookies are per host, not per instance).
 */
import { createHash, randomBytes } from 'node:crypto';
import { FormAgent, type Page, parseForms } from '../../helpers/form-agent.js';

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function toJsonResponse(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // an HTML page or empty body: leave `body` empty and keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return toJsonResponse(response);
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return toJsonResponse(await fetch(url, { headers }));
}

export async function postJson(url: string, value: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });
  return toJsonResponse(response);
}

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** Registers a public (or confidential) client; returns its id and secret. */
export async function register(
  base: string,
  method: 'none' | 'client_secret_basic' = 'none',
  headers: Record<string, string> = {},
): Promise<{ clientId: string; secret?: string; response: JsonResponse }> {
  const response = await postJson(
    `${base}/oauth/clients/register`,
    {
      client_name: 'Production Test Agent',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
    },
    headers,
  );
  const clientId = typeof response.body.client_id === 'string' ? response.body.client_id : '';
  const secret = typeof response.body.client_secret === 'string' ? response.body.client_secret : undefined;
  return { clientId, response, ...(secret ? { secret } : {}) };
}

export interface PkceRequest {
  url: string;
  verifier: string;
  state: string;
}

export function buildAuthorizeUrl(
  base: string,
  clientId: string,
  scope = 'openid offline_access',
): PkceRequest {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    state,
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.href, verifier, state };
}

/** One browser (one cookie jar) that can send each request to either of several instances. */
export class RoamingBrowser {
  readonly #agents: FormAgent[];
  readonly #jar = new Map<string, string>();

  constructor(origins: readonly string[]) {
    this.#agents = origins.map((origin) => new FormAgent(origin));
  }

  #on(index: number): FormAgent {
    const agent = this.#agents[index];
    if (!agent) throw new RangeError(`no instance ${index}`);
    agent.cookies.clear();
    for (const [k, v] of this.#jar) agent.cookies.set(k, v);
    return agent;
  }

  #keep(agent: FormAgent): void {
    this.#jar.clear();
    for (const [k, v] of agent.cookies) this.#jar.set(k, v);
  }

  /** GET `pathAndQuery` on instance `index` (no redirects followed). */
  async get(index: number, pathAndQuery: string): Promise<Page> {
    const agent = this.#on(index);
    const page = await agent.get(new URL(pathAndQuery, agent.origin).href);
    this.#keep(agent);
    return page;
  }

  /** Presses `button` on `page` (fetched anywhere), sending the form to instance `index`. */
  async submit(
    index: number,
    page: Page,
    button: string,
    fields: Record<string, string> = {},
  ): Promise<Page> {
    const agent = this.#on(index);
    const moved = { ...page, url: new URL(new URL(page.url).pathname, agent.origin).href };
    const result = await agent.submit(moved, button, fields);
    this.#keep(agent);
    return result;
  }
}

export function buttonsOf(page: Page): string[] {
  return parseForms(page.html).flatMap((f) => f.buttons.map((b) => b.text));
}

/** The path (and query) of a same-issuer redirect. */
export function pathOf(location: string | undefined): string {
  if (!location) throw new Error('expected a redirect');
  const url = new URL(location);
  return `${url.pathname}${url.search}`;
}
