/**
 * A started authorization request ("interaction") and what happens next: sign-in when
 * there is no live session (or prompt=login / max_age demand a fresh one), consent when
 * it is needed, otherwise a code sent back to the client. Consent is remembered only for
 * confidential clients; public and native clients are asked every time (RFC 8252 §8.6).
 * Every response to the client is a 303 to the registered redirect URI carrying `state`
 * and, per RFC 9207 §2, `iss`.
 */
import type { Request, Response } from 'express';
import { isClientIdDocumentUrl } from './client-id-document/resolve-client.js';
import { isLoopbackHost } from './client-metadata.js';
import { type IssuerContext, nowSeconds } from './context.js';
import { type ActiveSession, ensureCsrfToken, readSession } from './cookies.js';
import { OAuthError } from './errors.js';
import { isScopeSubset, parseScope } from './params.js';
import { generateId, generateSecret, hashSecret } from './secrets.js';
import type { ClientRow, InteractionRow } from './store/rows.js';
import { formActionSource } from './views.js';

export const SCOPE_WORDS: Readonly<Record<string, string>> = {
  openid: 'Confirm that it is you (your account identifier)',
  profile: 'See your name',
  email: 'See your email address',
  offline_access: 'Keep access while you are away, until you sign out or revoke it',
};

/** A 303 to the client's redirect URI with `iss` (RFC 9207) and the given parameters. */
export function redirectToClient(
  ctx: IssuerContext,
  res: Response,
  redirectUri: string,
  params: Readonly<Record<string, string | null | undefined>>,
): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, value);
  }
  url.searchParams.set('iss', ctx.config.issuer);
  res.set('Cache-Control', 'no-store').redirect(303, url.href);
}

export function isConfidential(client: ClientRow): boolean {
  return client.tokenEndpointAuthMethod !== 'none';
}

/** True when the interaction still wants a sign-in: none yet, or prompt=login / max_age demand a fresh one. */
export function needsSignIn(
  ctx: IssuerContext,
  interaction: InteractionRow,
  active: ActiveSession | undefined,
): boolean {
  if (!active) return true;
  if (interaction.signedInAt !== null) return false;
  if (interaction.prompt?.split(' ').includes('login')) return true;
  return interaction.maxAge !== null && nowSeconds(ctx) - active.session.authTime > interaction.maxAge;
}

async function needsConsent(
  ctx: IssuerContext,
  client: ClientRow,
  interaction: InteractionRow,
  customerId: string,
) {
  if (interaction.prompt?.split(' ').includes('consent') || !isConfidential(client)) return true;
  const consent = await ctx.store.findConsent(customerId, client.clientId);
  return !consent || !isScopeSubset(parseScope(interaction.scope), parseScope(consent.scope));
}

/** Issues the code for a consented interaction and sends the browser back to the client. */
export async function completeInteraction(
  ctx: IssuerContext,
  res: Response,
  interaction: InteractionRow,
  active: ActiveSession,
): Promise<void> {
  const now = nowSeconds(ctx);
  const grantId = generateId();
  const offline = parseScope(interaction.scope).includes('offline_access');
  await ctx.store.createGrant({
    id: grantId,
    clientId: interaction.clientId,
    customerId: active.customer.id,
    sessionIdHash: active.session.idHash,
    scope: interaction.scope,
    resource: interaction.resource,
    authTime: active.session.authTime,
    createdAt: now,
    // Refresh tokens live no longer than the session they were granted in (spec 5.5).
    expiresAt: offline ? active.session.expiresAt : now + ctx.config.codeTtl + ctx.config.accessTokenTtl,
    revokedAt: null,
  });
  const code = generateSecret();
  await ctx.store.createCode({
    codeHash: hashSecret(code),
    grantId,
    clientId: interaction.clientId,
    redirectUri: interaction.redirectUri,
    codeChallenge: interaction.codeChallenge,
    nonce: interaction.nonce,
    createdAt: now,
    expiresAt: now + ctx.config.codeTtl,
    consumedAt: null,
  });
  await ctx.store.deleteInteraction(interaction.idHash);
  redirectToClient(ctx, res, interaction.redirectUri, { code, state: interaction.state });
}

/** Sends a refusal back to the client and forgets the interaction. */
export async function refuseInteraction(
  ctx: IssuerContext,
  res: Response,
  interaction: InteractionRow,
  error: string,
  description: string,
): Promise<void> {
  await ctx.store.deleteInteraction(interaction.idHash);
  redirectToClient(ctx, res, interaction.redirectUri, {
    error,
    error_description: description,
    state: interaction.state,
  });
}

/** Loads an interaction by its raw id and checks it belongs to this browser and is live. */
export async function loadInteraction(ctx: IssuerContext, rawId: unknown, browser: string | undefined) {
  const idHash = typeof rawId === 'string' && rawId.length <= 100 ? hashSecret(rawId) : undefined;
  const interaction = idHash ? await ctx.store.findInteraction(idHash) : undefined;
  if (!interaction || interaction.expiresAt <= nowSeconds(ctx) || browser !== interaction.browserHash) {
    throw new OAuthError(
      400,
      'invalid_request',
      'this sign-in has expired or was started elsewhere; return to the app and start again',
      { render: 'page' },
    );
  }
  const client = await ctx.store.findClient(interaction.clientId);
  if (!client)
    throw new OAuthError(400, 'invalid_client', 'the app is no longer registered', { render: 'page' });
  return { interaction, client };
}

/**
 * What the consent page says about where an app comes from: the host of its Client ID
 * Metadata Document, and whether every redirect stays on this device (a loopback client,
 * whose name nobody can vouch for: the CIMD draft's security considerations ask for a warning).
 */
function describeOrigin(client: ClientRow): { documentHost?: string; loopbackOnly: boolean } {
  const loopbackOnly = client.redirectUris.every((uri) => {
    if (!URL.canParse(uri)) return false;
    const url = new URL(uri);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname);
  });
  if (!isClientIdDocumentUrl(client.clientId)) return { loopbackOnly };
  return { documentHost: new URL(client.clientId).host, loopbackOnly };
}

/** Decides the next step of an interaction: sign-in page, consent page, or the code. */
export async function continueInteraction(
  ctx: IssuerContext,
  req: Request,
  res: Response,
  rawId: string,
  interaction: InteractionRow,
  client: ClientRow,
): Promise<void> {
  const active = await readSession(ctx, req);
  const promptNone = interaction.prompt === 'none';
  const formActions = [formActionSource(interaction.redirectUri)].filter((s): s is string => s !== undefined);
  const clientName = client.clientName ?? 'An unnamed app';
  if (needsSignIn(ctx, interaction, active) || !active) {
    // OpenID Connect Core §3.1.2.6: with prompt=none the OP "MUST NOT display any authentication or consent" UI.
    if (promptNone)
      return refuseInteraction(ctx, res, interaction, 'login_required', 'the customer is not signed in');
    const csrf = ensureCsrfToken(ctx, req, res);
    ctx.views.sendPage(
      res,
      'signin',
      { csrf, interaction: rawId, clientName },
      { title: 'Sign in', formActions },
    );
    return;
  }
  if (await needsConsent(ctx, client, interaction, active.customer.id)) {
    if (promptNone)
      return refuseInteraction(
        ctx,
        res,
        interaction,
        'consent_required',
        'the customer has not approved this app',
      );
    const csrf = ensureCsrfToken(ctx, req, res);
    const scopes = parseScope(interaction.scope).map((s) => SCOPE_WORDS[s] ?? s);
    const redirectHost = new URL(interaction.redirectUri).host || new URL(interaction.redirectUri).protocol;
    const page = { csrf, interaction: rawId, clientName, scopes, redirectHost, ...describeOrigin(client) };
    ctx.views.sendPage(
      res,
      'consent',
      { ...page, customerEmail: active.customer.email },
      { title: `Allow ${clientName}?`, formActions },
    );
    return;
  }
  await completeInteraction(ctx, res, interaction, active);
}
