/**
 * Gets an issuer to hand out tokens the way a client and a person would: discovery,
 * dynamic registration of a public client, then the authorization code flow with PKCE
 * (S256) through the issuer's own HTML sign-in and consent forms with a cookie jar, and
 * the code exchanged at the token endpoint. Works against any issuer whose forms have an
 * email (or login) and a password field and a `Sign in` / `Allow` / `Continue` button,
 * which covers ours and oidc-provider's dev interactions.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readForms } from './html-forms.js';

export interface IssuerEndpoints {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
}

export interface Credentials {
  email: string;
  password: string;
}

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SUBMIT_LABELS = ['sign in', 'sign-in', 'allow', 'continue'];
const MAX_STEPS = 12;

export async function discover(baseUrl: string): Promise<IssuerEndpoints> {
  const response = await fetch(`${baseUrl}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  return (await response.json()) as IssuerEndpoints;
}

export function registrationBody(): string {
  return JSON.stringify({
    application_type: 'native',
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: 'bench client',
  });
}

export async function registerPublicClient(endpoints: IssuerEndpoints): Promise<string> {
  const response = await fetch(endpoints.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: registrationBody(),
  });
  const body = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || !body.client_id)
    throw new Error(`registration answered ${response.status}: ${JSON.stringify(body)}`);
  return body.client_id;
}

class CookieJar {
  readonly #cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (pair && index > 0) this.#cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Fills the page's sign-in or consent form and returns the request that submits it. */
function submitForm(html: string, pageUrl: string, who: Credentials): { url: string; body: string } {
  for (const form of readForms(html)) {
    const button = form.buttons.find((b) => SUBMIT_LABELS.includes(b.text.toLowerCase()));
    if (form.method !== 'post' || !button) continue;
    const body = new URLSearchParams();
    for (const field of form.fields) {
      if (field.type === 'password') body.set(field.name, who.password);
      else if (field.type === 'email' || ['email', 'login', 'username'].includes(field.name))
        body.set(field.name, who.email);
      else body.set(field.name, field.value);
    }
    if (button.name) body.set(button.name, button.value ?? '');
    return { url: new URL(form.action ?? pageUrl, pageUrl).href, body: body.toString() };
  }
  throw new Error(`no sign-in or consent form at ${pageUrl}: ${html.slice(0, 300)}`);
}

/** Follows the browser's path from the authorization request to the code at the redirect URI. */
async function obtainCode(authorizeUrl: string, who: Credentials): Promise<string> {
  const jar = new CookieJar();
  let request: { url: string; body?: string } = { url: authorizeUrl };
  for (let step = 0; step < MAX_STEPS; step++) {
    const response = await fetch(request.url, {
      method: request.body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(request.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.arrayBuffer();
      const next = new URL(location, request.url);
      if (next.href.startsWith(REDIRECT_URI)) {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`authorization ended without a code: ${next.search}`);
        return code;
      }
      request = { url: next.href };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`${request.url} answered ${response.status}: ${html.slice(0, 300)}`);
    request = submitForm(html, request.url, who);
  }
  throw new Error(`no code after ${MAX_STEPS} steps`);
}

/** Completes one authorization for `clientId` and returns its access and refresh tokens. */
export async function authorize(
  endpoints: IssuerEndpoints,
  clientId: string,
  who: Credentials,
): Promise<TokenSet> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(endpoints.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email offline_access',
    // OpenID Connect Core §11: offline_access is honoured only with prompt=consent.
    prompt: 'consent',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const code = await obtainCode(url.href, who);
  const response = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await response.json()) as Partial<TokenSet> & { error?: string };
  if (!response.ok || !tokens.access_token || !tokens.refresh_token) {
    throw new Error(`token endpoint answered ${response.status}: ${JSON.stringify(tokens)}`);
  }
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
}
