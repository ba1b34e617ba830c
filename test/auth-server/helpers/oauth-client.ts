/**
 * The client side of the tests, built on oauth4webapi (an independent, widely used OAuth
 * client) so the issuer is judged by someone else's reading of the RFCs: discovery,
 * registration and a full authorization code + PKCE run through the HTML forms.
 */
import * as oauth from 'oauth4webapi';
import { authorizeInBrowser, FormAgent } from './form-agent.js';

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const response = await oauth.discoveryRequest(url, { algorithm: 'oidc', ...insecure });
  return oauth.processDiscoveryResponse(url, response);
}

export interface RegisteredClient {
  client: oauth.Client;
  auth: oauth.ClientAuth;
  secret?: string;
  redirectUri: string;
}

export async function registerClient(
  as: oauth.AuthorizationServer,
  method: 'none' | 'client_secret_basic' | 'client_secret_post' = 'none',
  extra: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    {
      client_name: 'Test Agent',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...extra,
    },
    insecure,
  );
  const client = await oauth.processDynamicClientRegistrationResponse(response);
  const secret = typeof client.client_secret === 'string' ? client.client_secret : undefined;
  const auth =
    method === 'none'
      ? oauth.None()
      : method === 'client_secret_basic'
        ? oauth.ClientSecretBasic(secret ?? '')
        : oauth.ClientSecretPost(secret ?? '');
  return { client, auth, redirectUri, ...(secret ? { secret } : {}) };
}

export interface AuthorizationResult {
  tokens: oauth.TokenEndpointResponse;
  nonce: string;
  callback: URL;
}

export interface AuthorizeOptions {
  scope?: string;
  agent?: FormAgent;
  credentials: { email: string; password: string };
  extraParams?: Record<string, string>;
}

/** Builds the authorization URL for a PKCE S256 request; returns it with the verifier, state and nonce. */
export async function buildAuthorizationUrl(
  as: oauth.AuthorizationServer,
  registered: RegisteredClient,
  scope: string,
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint ?? '');
  url.searchParams.set('client_id', registered.client.client_id);
  url.searchParams.set('redirect_uri', registered.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', scope);
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { url, verifier, state, nonce };
}

/** The whole code flow: forms, callback validation (state, iss), token exchange, ID token checks. */
export async function authorize(
  as: oauth.AuthorizationServer,
  registered: RegisteredClient,
  options: AuthorizeOptions,
): Promise<AuthorizationResult> {
  const scope = options.scope ?? 'openid profile email offline_access';
  const { url, verifier, state, nonce } = await buildAuthorizationUrl(as, registered, scope);
  for (const [k, v] of Object.entries(options.extraParams ?? {})) url.searchParams.set(k, v);
  const agent = options.agent ?? new FormAgent(new URL(as.issuer).origin);
  const callback = await authorizeInBrowser(agent, url.href, options.credentials);
  const openid = scope.split(' ').includes('openid');
  const tokens = await exchangeCode(as, registered, callback, { verifier, state, nonce, openid });
  return { tokens, nonce, callback };
}

/**
 * The client's half after the redirect: validates the callback (state, RFC 9207 `iss`),
 * redeems the code with the PKCE verifier and, for an OpenID request, requires an ID token
 * carrying the nonce.
 */
export async function exchangeCode(
  as: oauth.AuthorizationServer,
  registered: RegisteredClient,
  callback: URL,
  request: { verifier: string; state: string; nonce: string; openid: boolean },
): Promise<oauth.TokenEndpointResponse> {
  const params = oauth.validateAuthResponse(as, registered.client, callback, request.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    registered.client,
    registered.auth,
    params,
    registered.redirectUri,
    request.verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(
    as,
    registered.client,
    response,
    request.openid ? { expectedNonce: request.nonce, requireIdToken: true } : {},
  );
}

/** POSTs a form to an endpoint and returns status, headers and the JSON body (if any). */
export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : {};
  return {
    status: response.status,
    headers: response.headers,
    body: (body ?? {}) as Record<string, unknown>,
  };
}

/** The token endpoint's status for a refresh with `refreshToken` (400 once it was revoked). */
export async function refreshStatus(
  as: oauth.AuthorizationServer,
  registered: RegisteredClient,
  refreshToken: string,
): Promise<number> {
  const response = await oauth.refreshTokenGrantRequest(
    as,
    registered.client,
    registered.auth,
    refreshToken,
    insecure,
  );
  return response.status;
}
