/**
 * Validation of RFC 7591 client metadata, pure and separate from the route so it can be
 * tested alone. Redirect URIs: absolute, no fragment, and https, http on a loopback IP
 * (RFC 8252 §7.3, any port) or a private-use scheme in reverse-domain form (RFC 8252
 * §7.1); `javascript:`, `data:`, `file:` and kin are refused. Only the grant and response
 * types and auth methods in ISSUER_CAPABILITIES are accepted. Unknown metadata is ignored
 * (RFC 7591 §2: "the authorization server MUST ignore any client metadata sent by the
 * client that it does not understand").
 */
import { findUnsafeCharacter } from './display-text.js';
import { ISSUER_CAPABILITIES } from './metadata.js';
import { isSupportedScope, parseScope } from './params.js';

export class ClientMetadataError extends Error {
  readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  constructor(error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string) {
    super(description);
    this.name = 'ClientMetadataError';
    this.error = error;
  }
}

export interface ValidClientMetadata {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  scope: string | null;
  clientName: string | null;
  /** What registration echoes back (RFC 7591 §3.2.1), defaults filled in. */
  echo: Record<string, unknown>;
}

const REFUSED_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'blob:',
  'about:',
  'filesystem:',
]);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);
const URI_FIELDS = ['logo_uri', 'policy_uri', 'tos_uri', 'client_uri'] as const;

function metadataError(description: string): ClientMetadataError {
  return new ClientMetadataError('invalid_client_metadata', description);
}

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Why a redirect URI is unacceptable, or undefined when it is fine. */
export function checkRedirectUri(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  // The URL parser drops tabs and newlines and encodes the rest, so the stored string would not be what was parsed.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007F]/.test(uri)) return 'must not contain spaces or control characters';
  if (url.port === '0') return 'must not name port 0';
  if (REFUSED_SCHEMES.has(url.protocol)) return `the ${url.protocol} scheme is not allowed`;
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? undefined
      : 'http is allowed only on a loopback IP address (127.0.0.1 or [::1])';
  }
  // RFC 8252 §7.1: private-use schemes "MUST" be based on a domain name the app controls, in reverse order.
  if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) {
    return 'a private-use scheme must be a reverse domain name such as com.example.app';
  }
  return undefined;
}

function readStringArray(body: Record<string, unknown>, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw metadataError(`${name} must be an array of strings`);
  }
  return value;
}

function readString(body: Record<string, unknown>, name: string, max = 2000): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw metadataError(`${name} must be a string of at most ${max} characters`);
  // RFC 7591 §5: the text is unverified and shown to people, so it must not be able to lie.
  const unsafe = findUnsafeCharacter(value);
  if (unsafe !== undefined) throw metadataError(`${name} must not contain ${unsafe}`);
  return value;
}

function checkRedirects(uris: string[] | undefined, name: string, required: boolean): string[] {
  if (uris === undefined || uris.length === 0) {
    if (required) throw new ClientMetadataError('invalid_redirect_uri', `${name} must list at least one URI`);
    return [];
  }
  if (uris.length > 20) throw new ClientMetadataError('invalid_redirect_uri', `${name} lists too many URIs`);
  for (const uri of uris) {
    const problem = checkRedirectUri(uri);
    if (problem)
      throw new ClientMetadataError('invalid_redirect_uri', `${name}: ${uri.slice(0, 200)} ${problem}`);
  }
  return [...new Set(uris)];
}

function checkAllowed(values: string[], allowed: readonly string[], name: string): void {
  const bad = values.find((v) => !allowed.includes(v));
  if (bad !== undefined) throw metadataError(`${name} value ${bad.slice(0, 100)} is not supported`);
}

function checkTypes(body: Record<string, unknown>): { grantTypes: string[]; responseTypes: string[] } {
  const grantTypes = [...new Set(readStringArray(body, 'grant_types') ?? ['authorization_code'])];
  const responseTypes = [...new Set(readStringArray(body, 'response_types') ?? ['code'])];
  checkAllowed(grantTypes, ISSUER_CAPABILITIES.grantTypes, 'grant_types');
  checkAllowed(responseTypes, ISSUER_CAPABILITIES.responseTypes, 'response_types');
  // RFC 7591 §2.1: response type `code` goes with the authorization_code grant.
  if (!grantTypes.includes('authorization_code') || responseTypes.length === 0) {
    throw metadataError('grant_types must include authorization_code with response_types [code]');
  }
  return { grantTypes, responseTypes };
}

function checkInfoUris(body: Record<string, unknown>, redirectUris: string[]): Record<string, string> {
  const hosts = new Set(redirectUris.map((u) => new URL(u).host).filter((h) => h !== ''));
  const result: Record<string, string> = {};
  for (const field of URI_FIELDS) {
    const value = readString(body, field);
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw metadataError(`${field} must be an absolute URI`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      throw metadataError(`${field} must be an https URI`);
    }
    // A self-registered client could otherwise borrow another site's logo or policies.
    if (!hosts.has(url.host)) throw metadataError(`${field} must be on the same host as a redirect URI`);
    result[field] = value;
  }
  return result;
}

/** Validates a registration request body; throws ClientMetadataError. */
export function validateClientMetadata(input: unknown): ValidClientMetadata {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw metadataError('the request body must be a JSON object');
  }
  const body = input as Record<string, unknown>;
  const redirectUris = checkRedirects(readStringArray(body, 'redirect_uris'), 'redirect_uris', true);
  const postLogoutRedirectUris = checkRedirects(
    readStringArray(body, 'post_logout_redirect_uris'),
    'post_logout_redirect_uris',
    false,
  );
  const { grantTypes, responseTypes } = checkTypes(body);
  // RFC 7591 §2: "If unspecified or omitted, the default is client_secret_basic".
  const tokenEndpointAuthMethod = readString(body, 'token_endpoint_auth_method') ?? 'client_secret_basic';
  checkAllowed(
    [tokenEndpointAuthMethod],
    ISSUER_CAPABILITIES.tokenEndpointAuthMethods,
    'token_endpoint_auth_method',
  );
  const scopeText = readString(body, 'scope');
  const scopes = scopeText === undefined ? undefined : parseScope(scopeText);
  if (scopes?.some((s) => !isSupportedScope(s))) throw metadataError('scope lists an unsupported value');
  const idTokenAlg = readString(body, 'id_token_signed_response_alg');
  if (idTokenAlg !== undefined)
    checkAllowed([idTokenAlg], ISSUER_CAPABILITIES.idTokenSigningAlgs, 'id_token_signed_response_alg');
  const clientName = readString(body, 'client_name', 200)?.trim() || null;
  const contacts = readStringArray(body, 'contacts');
  const unsafeContact = contacts?.map(findUnsafeCharacter).find((u) => u !== undefined);
  if (unsafeContact !== undefined) throw metadataError(`contacts must not contain ${unsafeContact}`);
  const applicationType = readString(body, 'application_type');
  if (applicationType !== undefined) checkAllowed([applicationType], ['web', 'native'], 'application_type');
  const echo: Record<string, unknown> = {
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: tokenEndpointAuthMethod,
    id_token_signed_response_alg: idTokenAlg ?? 'RS256',
    ...(postLogoutRedirectUris.length ? { post_logout_redirect_uris: postLogoutRedirectUris } : {}),
    ...(clientName ? { client_name: clientName } : {}),
    ...(scopes ? { scope: scopes.join(' ') } : {}),
    ...(contacts ? { contacts } : {}),
    ...(applicationType ? { application_type: applicationType } : {}),
    ...checkInfoUris(body, redirectUris),
  };
  for (const field of ['software_id', 'software_version'] as const) {
    const value = readString(body, field, 200);
    if (value !== undefined) echo[field] = value;
  }
  return {
    redirectUris,
    postLogoutRedirectUris,
    grantTypes,
    tokenEndpointAuthMethod,
    scope: scopes ? scopes.join(' ') : null,
    clientName,
    echo,
  };
}
