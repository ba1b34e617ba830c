/**
 * Turning a request into either a verified token or the answer that tells a client how to
 * get one, for any resource protected by the issuer's tokens. The answers follow RFC 6750
 * §3 and RFC 9728 §5.1 (which MCP's authorization rules build on):
 *
 * - no token: `401` with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` and no
 *   error code (RFC 6750 §3.1: a request without credentials "SHOULD NOT" get one); the
 *   client reads the protected-resource metadata from there and starts its OAuth flow;
 * - a malformed `Authorization` header, or a token sent in the query: `400 invalid_request`
 *   (a token is only accepted in the header: spec 5.5, "never place a token in a URL");
 * - a token that fails verification: `401 invalid_token`;
 * - a good token without the scopes: `403 insufficient_scope`, naming the scopes needed.
 *
 * Web-standard `Request` and `Response` only, like the verifier it calls.
 */
import {
  AccessTokenError,
  type AccessTokenVerifier,
  missingScopes,
  type VerifiedAccessToken,
} from './verify-access-token.js';

export interface BearerGuardOptions {
  verify: AccessTokenVerifier;
  /** This resource's metadata URL (RFC 9728 §3.1), sent in every challenge. */
  resourceMetadataUrl: string;
  /** The scopes this request needs. */
  scopes: readonly string[];
}

export type BearerOutcome =
  | { ok: true; token: string; claims: VerifiedAccessToken }
  | { ok: false; response: Response };

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** An auth-param value (RFC 9110 §11.2) as a quoted string; ours never hold `"` or `\`. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/["\\\u0000-\u001f\u007f]/.test(value)) throw new TypeError(`cannot quote ${value} in a challenge`);
  return `"${value}"`;
}

/** The `WWW-Authenticate` value for this resource, with an error code when there is one. */
export function bearerChallenge(
  options: Pick<BearerGuardOptions, 'resourceMetadataUrl' | 'scopes'>,
  error?: { code: string; description: string },
): string {
  const params = [
    ...(error ? [`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`] : []),
    `resource_metadata=${quoted(options.resourceMetadataUrl)}`,
    ...(options.scopes.length > 0 ? [`scope=${quoted(options.scopes.join(' '))}`] : []),
  ];
  return `Bearer ${params.join(', ')}`;
}

function refusal(
  status: number,
  options: BearerGuardOptions,
  error?: { code: string; description: string },
): BearerOutcome {
  const headers = {
    'WWW-Authenticate': bearerChallenge(options, error),
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json',
  };
  const body = error ? JSON.stringify({ error: error.code, error_description: error.description }) : null;
  return { ok: false, response: new Response(body, { status, headers }) };
}

/** Verifies the request's bearer token and scopes; the refusal is ready to send. */
export async function authenticateBearer(
  request: Request,
  options: BearerGuardOptions,
): Promise<BearerOutcome> {
  if (new URL(request.url).searchParams.has('access_token')) {
    return refusal(400, options, {
      code: 'invalid_request',
      description: 'send the access token in the Authorization header, never in the URL',
    });
  }
  const header = request.headers.get('authorization');
  if (header === null || !/^bearer\b/i.test(header)) return refusal(401, options);
  const token = BEARER.exec(header)?.[1];
  if (token === undefined)
    return refusal(400, options, { code: 'invalid_request', description: 'malformed Authorization header' });
  let claims: VerifiedAccessToken;
  try {
    claims = await options.verify(token);
  } catch (error) {
    if (!(error instanceof AccessTokenError)) throw error;
    return refusal(401, options, { code: 'invalid_token', description: error.message });
  }
  if (missingScopes(claims, options.scopes).length > 0) {
    return refusal(403, options, {
      code: 'insufficient_scope',
      description: `this needs the scopes ${options.scopes.join(' ')}`,
    });
  }
  return { ok: true, token, claims };
}
