/**
 * The authorization endpoint (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2): code flow with
 * PKCE S256 only. Until the client and its redirect URI are known to match, errors are an
 * HTML page (400) and never a redirect (RFC 6749 §4.1.2.1: the server "MUST NOT
 * automatically redirect the user-agent to the invalid redirection URI"); after that,
 * errors go back to the redirect URI only for a signed-in browser (RFC 9700 §4.11.2: a
 * self-registered client is not trusted with automatic redirects), else the same page. A
 * valid request becomes a stored interaction bound to this browser, and the next step
 * (sign-in, consent or code) follows at once.
 */
import express, { type Request, type Response, Router } from 'express';
import { ClientDocumentError } from '../client-id-document/fetch-document.js';
import { isClientIdDocumentUrl } from '../client-id-document/resolve-client.js';
import { type IssuerContext, nowSeconds } from '../context.js';
import { ensureCsrfToken, readSession } from '../cookies.js';
import { OAuthError } from '../errors.js';
import { continueInteraction, redirectToClient } from '../interaction.js';
import { ISSUER_CAPABILITIES } from '../metadata.js';
import {
  formatScope,
  isScopeSubset,
  isSupportedScope,
  parseScope,
  readParam,
  readParams,
} from '../params.js';
import { matchRedirectUri } from '../redirect-uris.js';
import {
  checkServedResources,
  formatResources,
  InvalidTargetError,
  readResources,
} from '../resource-indicators.js';
import { generateSecret, hashSecret } from '../secrets.js';
import type { ClientRow } from '../store/rows.js';

const PARAMS = [
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'response_mode',
  'request',
  'request_uri',
] as const;
type AuthorizeParams = Partial<Record<(typeof PARAMS)[number], string>>;

// RFC 7636 §4.2: S256 challenges are BASE64URL(SHA256(verifier)), 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_TEXT = 1024;

class RedirectableError extends Error {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

function pageError(description: string, error = 'invalid_request'): OAuthError {
  return new OAuthError(400, error, description, { render: 'page' });
}

/** A registered client, or the one a Client ID Metadata Document URL describes (fetched). */
async function findClient(ctx: IssuerContext, clientId: string): Promise<ClientRow | undefined> {
  if (!isClientIdDocumentUrl(clientId)) return ctx.store.findClient(clientId);
  try {
    return await ctx.clientDocuments.resolve(clientId);
  } catch (error) {
    if (error instanceof ClientDocumentError) throw pageError(error.message, 'invalid_client');
    throw error;
  }
}

async function findClientAndRedirect(
  ctx: IssuerContext,
  source: unknown,
): Promise<{ client: ClientRow; redirectUri: string }> {
  const clientId = readParam(source, 'client_id');
  if (!clientId.ok || !clientId.value) throw pageError('the request names no app (client_id)');
  const client = await findClient(ctx, clientId.value);
  if (!client) throw pageError('this app is not registered here', 'invalid_client');
  const redirect = readParam(source, 'redirect_uri');
  if (!redirect.ok || !redirect.value) throw pageError('the request has no redirect_uri');
  const redirectUri = matchRedirectUri(redirect.value, client.redirectUris);
  if (!redirectUri) throw pageError('the redirect_uri is not registered for this app');
  return { client, redirectUri };
}

function checkScope(params: AuthorizeParams, client: ClientRow): string {
  // RFC 6749 §3.3: without a default scope the server "MUST ... fail the request indicating an invalid scope".
  if (!params.scope) throw new RedirectableError('invalid_scope', 'scope is required');
  const scopes = parseScope(params.scope);
  if (scopes.length === 0 || !scopes.every(isSupportedScope))
    throw new RedirectableError('invalid_scope', 'unsupported scope');
  if (client.scope !== null && !isScopeSubset(scopes, parseScope(client.scope))) {
    throw new RedirectableError('invalid_scope', 'scope exceeds what the app registered');
  }
  // offline_access only means something to a client that may use refresh tokens.
  const usable = client.grantTypes.includes('refresh_token')
    ? scopes
    : scopes.filter((s) => s !== 'offline_access');
  if (usable.length === 0) throw new RedirectableError('invalid_scope', 'no usable scope');
  return formatScope(usable);
}

function checkPrompt(prompt: string | undefined): void {
  if (prompt === undefined) return;
  const values = prompt.split(' ').filter((v) => v !== '');
  const allowed: readonly string[] = ISSUER_CAPABILITIES.prompts;
  if (!values.every((v) => allowed.includes(v)))
    throw new RedirectableError('invalid_request', 'unsupported prompt value');
  // OpenID Connect Core §3.1.2.1: "If this parameter contains none with any other value, an error is returned."
  if (values.includes('none') && values.length > 1)
    throw new RedirectableError('invalid_request', 'prompt=none must stand alone');
}

function checkRequest(params: AuthorizeParams, client: ClientRow): { scope: string; maxAge: number | null } {
  if (params.request)
    throw new RedirectableError('request_not_supported', 'request objects are not supported');
  if (params.request_uri)
    throw new RedirectableError('request_uri_not_supported', 'request_uri is not supported');
  if (!params.response_type) throw new RedirectableError('invalid_request', 'response_type is required');
  if (params.response_type !== 'code')
    throw new RedirectableError('unsupported_response_type', 'only response_type=code is supported');
  if (params.response_mode !== undefined && params.response_mode !== 'query') {
    throw new RedirectableError('invalid_request', 'only response_mode=query is supported');
  }
  if (!client.grantTypes.includes('authorization_code')) {
    throw new RedirectableError('unauthorized_client', 'the app may not use the authorization code grant');
  }
  // PKCE is required for every client, and plain is refused: only the advertised methods pass.
  if (!params.code_challenge)
    throw new RedirectableError('invalid_request', 'code_challenge is required (PKCE)');
  const method = params.code_challenge_method ?? 'plain';
  if (!(ISSUER_CAPABILITIES.codeChallengeMethods as readonly string[]).includes(method)) {
    throw new RedirectableError('invalid_request', 'code_challenge_method must be S256');
  }
  if (!S256_CHALLENGE.test(params.code_challenge))
    throw new RedirectableError('invalid_request', 'malformed code_challenge');
  if ((params.state?.length ?? 0) > MAX_TEXT || (params.nonce?.length ?? 0) > MAX_TEXT) {
    throw new RedirectableError('invalid_request', 'state or nonce is too long');
  }
  checkPrompt(params.prompt);
  if (params.max_age !== undefined && !/^\d{1,9}$/.test(params.max_age)) {
    throw new RedirectableError('invalid_request', 'max_age must be a non-negative integer');
  }
  return {
    scope: checkScope(params, client),
    maxAge: params.max_age === undefined ? null : Number(params.max_age),
  };
}

/** RFC 8707 §2: the resources asked for, each one this issuer serves, as the grant will store them. */
function checkResources(ctx: IssuerContext, source: unknown): string | null {
  try {
    const resources = readResources(source);
    checkServedResources(resources, ctx.config.resources);
    return formatResources(resources);
  } catch (error) {
    if (error instanceof InvalidTargetError) throw new RedirectableError('invalid_target', error.message);
    throw error;
  }
}

async function handleAuthorize(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  const source: unknown = req.method === 'POST' ? req.body : req.query;
  const { client, redirectUri } = await findClientAndRedirect(ctx, source);
  const read = readParams(source, PARAMS);
  const state = read.ok ? read.values.state : undefined;
  try {
    if (!read.ok) throw new RedirectableError('invalid_request', `${read.repeated} must not be repeated`);
    const { scope, maxAge } = checkRequest(read.values, client);
    const resource = checkResources(ctx, source);
    // The interaction is bound to this browser's CSRF cookie: a link to it is useless elsewhere.
    const browser = hashSecret(ensureCsrfToken(ctx, req, res));
    const rawId = generateSecret();
    const now = nowSeconds(ctx);
    const interaction = {
      idHash: hashSecret(rawId),
      browserHash: browser,
      clientId: client.clientId,
      redirectUri,
      scope,
      state: read.values.state ?? null,
      nonce: read.values.nonce ?? null,
      codeChallenge: read.values.code_challenge ?? '',
      prompt: read.values.prompt ?? null,
      maxAge,
      resource,
      signedInAt: null,
      createdAt: now,
      expiresAt: now + ctx.config.interactionTtl,
    };
    await ctx.store.createInteraction(interaction);
    await continueInteraction(ctx, req, res, rawId, interaction, client);
  } catch (error) {
    if (!(error instanceof RedirectableError)) throw error;
    // RFC 9700 §4.11.2: every client here registered itself, so none is trusted to receive an
    // automatic redirect from a browser that has not signed in; anyone could otherwise use the
    // issuer's domain as a bouncer to any site they registered. A signed-in customer is sent back.
    if (!(await readSession(ctx, req))) throw unredirectedError(client, redirectUri, error);
    redirectToClient(ctx, res, redirectUri, { error: error.error, error_description: error.message, state });
  }
}

/** The error page shown instead of a redirect: what went wrong, which app, which host it named. */
function unredirectedError(client: ClientRow, redirectUri: string, error: RedirectableError): OAuthError {
  const url = new URL(redirectUri);
  const host = url.host || url.protocol;
  const app = client.clientName ?? 'An unnamed app';
  return pageError(
    `${app} sent a request this server cannot complete (${error.message}). It asked to return to ${host}; you were not sent there.`,
    error.error,
  );
}

export function createAuthorizeRouter(ctx: IssuerContext): Router {
  const router = Router();
  // OpenID Connect Core §3.1.2.1: servers "MUST support the use of the HTTP GET and POST methods".
  router.get('/oauth/authorize', (req, res) => handleAuthorize(ctx, req, res));
  router.post('/oauth/authorize', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) =>
    handleAuthorize(ctx, req, res),
  );
  return router;
}
