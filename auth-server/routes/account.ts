/**
 * The customer's account page and the ways out. `GET /account` lists connected apps, each
 * with a `Revoke` button, and a `Sign out` button. Sign-out ends the session and revokes
 * every grant made in it, refresh tokens included (spec 5.5: signing out "invalidates the
 * refresh token"); that binds refresh tokens to the session, unlike OpenID's usual
 * offline_access. `/oauth/logout` is the RP-initiated end-session endpoint (OpenID
 * Connect RP-Initiated Logout 1.0): it asks the customer to confirm, so a cross-site link
 * cannot sign anyone out, and returns only to a registered post_logout_redirect_uri: by a
 * redirect after a confirmed sign-out with a valid id_token_hint, otherwise by a link.
 */
import express, { type Request, type Response, Router } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { clearSessionCookie, ensureCsrfToken, readSession, verifyCsrf } from '../cookies.js';
import { OAuthError } from '../errors.js';
import { SCOPE_WORDS } from '../interaction.js';
import { readParams } from '../params.js';
import { formActionSource } from '../views.js';

/** The account page; `extra` adds a notice or a problem after an account action. */
export async function renderAccount(
  ctx: IssuerContext,
  req: Request,
  res: Response,
  extra: { notice?: string; problem?: string; status?: number } = {},
): Promise<void> {
  const csrf = ensureCsrfToken(ctx, req, res);
  const active = await readSession(ctx, req);
  if (!active) {
    ctx.views.sendPage(res, 'signin', { csrf }, { title: 'Sign in' });
    return;
  }
  const grants = await ctx.store.listActiveGrants(active.customer.id, nowSeconds(ctx));
  const clients = await ctx.store.findClients([...new Set(grants.map((g) => g.clientId))]);
  const apps = clients.map((client) => ({
    clientId: client.clientId,
    name: client.clientName ?? 'Unnamed app',
    // The same plain words as the consent page, not raw scope names.
    scopes: [
      ...new Set(grants.filter((g) => g.clientId === client.clientId).flatMap((g) => g.scope.split(' '))),
    ].map((scope) => SCOPE_WORDS[scope] ?? scope),
  }));
  ctx.views.sendPage(
    res,
    'account',
    { csrf, apps, customerName: active.customer.name, customerEmail: active.customer.email, ...extra },
    { title: 'Your account', status: extra.status ?? 200 },
  );
}

/** Ends this browser's session, if any; true when there was one to end. */
async function signOut(ctx: IssuerContext, req: Request, res: Response): Promise<boolean> {
  const active = await readSession(ctx, req);
  clearSessionCookie(ctx, res);
  if (!active) return false;
  await ctx.store.endSession(active.session.idHash, nowSeconds(ctx));
  ctx.logger.info('signed out', { customerId: active.customer.id });
  return true;
}

interface LogoutRequest {
  clientId?: string;
  clientName?: string | null;
  postLogoutRedirectUri?: string;
  state?: string;
  /** A valid id_token_hint (carried through the confirmation form): only then may the end be a redirect. */
  idTokenHint?: string;
}

async function readLogoutRequest(ctx: IssuerContext, source: unknown): Promise<LogoutRequest> {
  const read = readParams(source, ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state']);
  const fail = (description: string) =>
    new OAuthError(400, 'invalid_request', description, { render: 'page' });
  if (!read.ok) throw fail(`${read.repeated} must not be repeated`);
  const { id_token_hint: hint, post_logout_redirect_uri: redirectUri, state } = read.values;
  let clientId = read.values.client_id;
  if (hint) {
    const verified = await ctx.keys.verifyIdTokenHint(hint, ctx.config.sessionTtl).catch(() => undefined);
    if (!verified || (clientId !== undefined && clientId !== verified.clientId))
      throw fail('the id_token_hint is not valid');
    clientId = verified.clientId;
  }
  const client = clientId ? await ctx.store.findClient(clientId) : undefined;
  if (clientId && !client) throw fail('unknown client');
  if (redirectUri && !client?.postLogoutRedirectUris.includes(redirectUri)) {
    throw fail('post_logout_redirect_uri is not registered for this app');
  }
  return {
    clientId,
    clientName: client?.clientName,
    postLogoutRedirectUri: redirectUri,
    state,
    idTokenHint: hint,
  };
}

/**
 * The end of a sign-out. A redirect to the app's post_logout_redirect_uri only follows a
 * confirmed sign-out of a real session whose request carried a valid id_token_hint; any
 * other request cannot be trusted (RP-Initiated Logout 1.0 §3), and a registered URI alone
 * proves nothing when anyone may register, so the page offers a link instead of bouncing.
 */
function finishLogout(ctx: IssuerContext, res: Response, request: LogoutRequest, trusted: boolean): void {
  const heading = (merchant: string) => `You are signed out of ${merchant}`;
  const text = 'Apps you connected while signed in can no longer refresh their access.';
  if (!request.postLogoutRedirectUri) {
    ctx.views.sendMessage(res, 200, heading, text);
    return;
  }
  const url = new URL(request.postLogoutRedirectUri);
  if (request.state) url.searchParams.set('state', request.state);
  if (trusted) {
    res.redirect(303, url.href);
    return;
  }
  const app = request.clientName ?? 'the app';
  const link = { href: url.href, text: `Return to ${app} at ${url.host || url.protocol}` };
  ctx.views.sendMessage(res, 200, heading, text, { link });
}

export function createAccountRouter(ctx: IssuerContext): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  router.get('/account', (req, res) => renderAccount(ctx, req, res));
  router.post('/account/revoke', form, async (req, res) => {
    verifyCsrf(ctx, req);
    const active = await readSession(ctx, req);
    const read = readParams(req.body, ['client_id']);
    if (active && read.ok && read.values.client_id) {
      await ctx.store.revokeClientAccess(active.customer.id, read.values.client_id, nowSeconds(ctx));
      ctx.logger.info('app access revoked by customer', { clientId: read.values.client_id });
    }
    res.redirect(303, '/account');
  });
  router.post('/account/signout', form, async (req, res) => {
    verifyCsrf(ctx, req);
    await signOut(ctx, req, res);
    finishLogout(ctx, res, {}, false);
  });
  router.get('/oauth/logout', async (req, res) => {
    const request = await readLogoutRequest(ctx, req.query);
    if (!(await readSession(ctx, req))) return finishLogout(ctx, res, request, false);
    const csrf = ensureCsrfToken(ctx, req, res);
    const formActions = [
      request.postLogoutRedirectUri && formActionSource(request.postLogoutRedirectUri),
    ].filter((s): s is string => typeof s === 'string');
    ctx.views.sendPage(res, 'logout', { csrf, ...request }, { title: 'Sign out', formActions });
  });
  router.post('/oauth/logout', form, async (req, res) => {
    verifyCsrf(ctx, req);
    const request = await readLogoutRequest(ctx, req.body);
    const ended = await signOut(ctx, req, res);
    finishLogout(ctx, res, request, ended && request.idTokenHint !== undefined);
  });
  return router;
}
