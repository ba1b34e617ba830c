/**
 * The sign-in and consent forms. POST /signin checks email and password (scrypt, with a
 * dummy check for unknown emails so timing reveals no accounts), starts a session and
 * returns to the interaction (or the account page) with a 303. POST /consent records
 * the customer's `Allow` or `Deny`; `Deny` sends `access_denied` to the client (RFC 6749
 * §4.1.2.1). Both forms are CSRF-checked and the interaction must belong to this browser.
 */
import express, { type Request, type Response, Router } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { browserBinding, ensureCsrfToken, readSession, startSession, verifyCsrf } from '../cookies.js';
import { normaliseEmail } from '../customers.js';
import { OAuthError } from '../errors.js';
import {
  completeInteraction,
  continueInteraction,
  isConfidential,
  loadInteraction,
  needsSignIn,
  refuseInteraction,
} from '../interaction.js';
import { readParams } from '../params.js';
import { verifyAgainstDummy, verifyPassword } from '../passwords.js';
import { throttleSignIn } from '../throttle/sign-in.js';
import { formActionSource } from '../views.js';

const MAX_FIELD = 1024;

export function readForm(body: unknown, names: readonly string[]): Record<string, string | undefined> {
  const read = readParams(body, names);
  if (!read.ok)
    throw new OAuthError(400, 'invalid_request', `${read.repeated} must not be repeated`, { render: 'page' });
  const values: Record<string, string | undefined> = read.values;
  if (Object.values(values).some((v) => (v?.length ?? 0) > MAX_FIELD)) {
    throw new OAuthError(400, 'invalid_request', 'a field is too long', { render: 'page' });
  }
  return values;
}

async function checkCredentials(ctx: IssuerContext, email: string, password: string) {
  const customer = await ctx.store.findCustomerByEmail(normaliseEmail(email));
  // An invited or signed-up account has no password until a mailed link sets one.
  if (!customer || customer.passwordHash === '') return verifyAgainstDummy(password);
  return (await verifyPassword(password, customer.passwordHash)) ? customer : false;
}

async function handleSignIn(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const form = readForm(req.body, ['email', 'password', 'interaction']);
  const loaded = form.interaction
    ? await loadInteraction(ctx, form.interaction, browserBinding(ctx, req))
    : undefined;
  const customer = await throttleSignIn(ctx, req, form.email ?? '', () =>
    checkCredentials(ctx, form.email ?? '', form.password ?? ''),
  );
  if (!customer) {
    ctx.logger.info('sign-in failed', { interaction: loaded !== undefined });
    const formActions = loaded ? [formActionSource(loaded.interaction.redirectUri) ?? "'self'"] : [];
    const data = {
      csrf: ensureCsrfToken(ctx, req, res),
      interaction: form.interaction,
      clientName: loaded?.client.clientName,
      email: form.email,
      failed: true,
    };
    ctx.views.sendPage(res, 'signin', data, { status: 401, title: 'Sign in', formActions });
    return;
  }
  const current = await readSession(ctx, req);
  if (current?.customer.id === customer.id) {
    // Re-authentication (prompt=login, max_age) keeps the session, so sign-out still finds its grants.
    await ctx.store.renewSessionAuthTime(current.session.idHash, nowSeconds(ctx));
  } else {
    // Another customer on this browser replaces the old session, which ends with its grants.
    if (current) await ctx.store.endSession(current.session.idHash, nowSeconds(ctx));
    await startSession(ctx, res, customer.id);
  }
  ctx.logger.info('signed in', { customerId: customer.id });
  if (!loaded || !form.interaction) {
    res.redirect(303, '/account');
    return;
  }
  await ctx.store.markInteractionSignedIn(loaded.interaction.idHash, nowSeconds(ctx));
  res.redirect(303, `/interaction/${encodeURIComponent(form.interaction)}`);
}

async function handleConsent(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const form = readForm(req.body, ['interaction', 'decision']);
  const { interaction, client } = await loadInteraction(ctx, form.interaction, browserBinding(ctx, req));
  const active = await readSession(ctx, req);
  // OpenID Connect Core §3.1.2.1: prompt=login and max_age demand a sign-in within this
  // interaction; the sign-in page's own hidden fields must not reach consent without one.
  if (!active || needsSignIn(ctx, interaction, active)) {
    res.redirect(303, `/interaction/${encodeURIComponent(form.interaction ?? '')}`);
    return;
  }
  if (form.decision !== 'allow') {
    ctx.logger.info('consent denied', { clientId: client.clientId });
    await refuseInteraction(ctx, res, interaction, 'access_denied', 'the customer denied the request');
    return;
  }
  if (isConfidential(client)) {
    await ctx.store.saveConsent({
      customerId: active.customer.id,
      clientId: client.clientId,
      scope: interaction.scope,
      createdAt: nowSeconds(ctx),
    });
  }
  await completeInteraction(ctx, res, interaction, active);
}

export function createSessionRouter(ctx: IssuerContext): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  router.get('/interaction/:id', async (req, res) => {
    const { interaction, client } = await loadInteraction(ctx, req.params.id, browserBinding(ctx, req));
    await continueInteraction(ctx, req, res, req.params.id, interaction, client);
  });
  router.post('/signin', form, (req, res) => handleSignIn(ctx, req, res));
  router.post('/consent', form, (req, res) => handleConsent(ctx, req, res));
  return router;
}
