/**
 * Getting into an account by mail: `Forgot password?` (GET/POST /password/forgot), the page
 * every mailed link opens (GET/POST /password/set, the token in its query) and, when the
 * operator allows it, self sign-up (GET/POST /signup). The forms that send mail answer the
 * same page whether or not the address has an account, and do the account's work (token,
 * mail) after the answer is sent, so status, body and timing class are the same either way.
 * Following a live link verifies the address; setting the password spends the token, ends
 * every session and revokes every grant (email-link-queries.ts).
 */
import express, { type Request, type Response, Router } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { clearSessionCookie, ensureCsrfToken, verifyCsrf } from '../cookies.js';
import { isEmailAddress, normaliseEmail } from '../customers.js';
import { OAuthError } from '../errors.js';
import { checkInvite } from '../invitations.js';
import { SET_PASSWORD_PATH } from '../mail/account-mail.js';
import { checkNewPassword, describePasswordProblem } from '../password-policy.js';
import { hashPassword } from '../passwords.js';
import { generateId, hashSecret } from '../secrets.js';
import type { EmailTokenPurpose, EmailTokenRow } from '../store/email-link-queries.js';
import type { PendingSignupRow } from '../store/signup-queries.js';
import { throttleMailRequest } from '../throttle/mail-requests.js';
import { deliverInBackground, mailResetLink, openAccountBySignup } from './account-mail-tasks.js';
import { readForm } from './session.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const HEADINGS: Readonly<Record<EmailTokenPurpose, { heading: string; intro: string }>> = {
  invite: {
    heading: 'Choose your password',
    intro: 'Your account is ready; choose a password to start using it.',
  },
  reset: {
    heading: 'Choose a new password',
    intro: 'Setting it signs you out everywhere and disconnects your apps.',
  },
  signup: {
    heading: 'Confirm your account',
    intro: 'Your address is confirmed. Choose a password to finish.',
  },
};

function deadLink(): OAuthError {
  return new OAuthError(
    400,
    'invalid_link',
    'This link has expired, was already used, or is not valid. Ask for a new one with "Forgot password?" on the sign-in page.',
    { render: 'page' },
  );
}

/**
 * What a live link names: a token of an existing account (invitation, reset), or a pending
 * sign-up that becomes an account when its password is set (signup-queries.ts).
 */
type LiveLink =
  | { kind: 'account'; purpose: EmailTokenPurpose; row: EmailTokenRow }
  | { kind: 'signup'; purpose: 'signup'; row: PendingSignupRow };

/** The live link a token names, or the dead-link page. */
async function liveLink(ctx: IssuerContext, token: string | undefined): Promise<LiveLink> {
  if (!token || !TOKEN_SHAPE.test(token)) throw deadLink();
  const tokenHash = hashSecret(token);
  const now = nowSeconds(ctx);
  const row = await ctx.store.emailLinks.findToken(tokenHash);
  if (row && row.usedAt === null && row.expiresAt > now)
    return { kind: 'account', purpose: row.purpose, row };
  const pending = row ? undefined : await ctx.store.signups.findPending(tokenHash, now);
  if (pending) return { kind: 'signup', purpose: 'signup', row: pending };
  throw deadLink();
}

function readEmail(body: unknown): string {
  const email = normaliseEmail(readForm(body, ['email']).email ?? '');
  // One address, nothing else: a list or a display name would reach the mail's To: header.
  if (!isEmailAddress(email))
    throw new OAuthError(400, 'invalid_request', 'Enter the email address of your account.', {
      render: 'page',
    });
  return email;
}

async function handleForgot(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const email = readEmail(req.body);
  await throttleMailRequest(ctx, req, 'forgot', email);
  deliverInBackground(ctx, 'password reset', () => mailResetLink(ctx, email));
  ctx.views.sendPage(res, 'forgot', { sent: true }, { title: 'Check your mail' });
}

async function showSetPassword(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  const token = typeof req.query.token === 'string' ? req.query.token : undefined;
  const link = await liveLink(ctx, token);
  let email: string;
  if (link.kind === 'account') {
    // Reaching this page proves the customer reads mail at the address.
    await ctx.store.emailLinks.markEmailVerified(link.row.customerId, nowSeconds(ctx));
    const customer = await ctx.store.findCustomerById(link.row.customerId);
    if (!customer) throw deadLink();
    email = customer.email;
  } else email = link.row.email;
  const csrf = ensureCsrfToken(ctx, req, res);
  const { heading, intro } = HEADINGS[link.purpose];
  ctx.views.sendPage(res, 'set-password', { csrf, token, heading, intro, email }, { title: heading });
}

async function handleSetPassword(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const form = readForm(req.body, ['token', 'new_password']);
  const link = await liveLink(ctx, form.token);
  const password = form.new_password ?? '';
  const problem = checkNewPassword(password);
  if (problem) {
    const { heading, intro } = HEADINGS[link.purpose];
    const data = { csrf: ensureCsrfToken(ctx, req, res), token: form.token, heading, intro };
    ctx.views.sendPage(
      res,
      'set-password',
      { ...data, problem: describePasswordProblem(problem) },
      { status: 400, title: heading },
    );
    return;
  }
  const passwordHash = await hashPassword(password);
  const customerId =
    link.kind === 'account'
      ? await ctx.store.emailLinks.spendToken(link.row.tokenHash, passwordHash, nowSeconds(ctx))
      : await ctx.store.signups.confirm(link.row.tokenHash, generateId(), passwordHash, nowSeconds(ctx));
  if (!customerId) throw deadLink();
  ctx.logger.info('password set by mailed link', { customerId, purpose: link.purpose });
  clearSessionCookie(ctx, res);
  const notice = 'Your password is set. Sign in with it now.';
  ctx.views.sendPage(res, 'signin', { csrf: ensureCsrfToken(ctx, req, res), notice }, { title: 'Sign in' });
}

async function handleSignup(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const form = readForm(req.body, ['name', 'email']);
  const email = readEmail(req.body);
  const name = (form.name ?? '').trim();
  // The rules `customers invite` applies: a real address, a name fit to show.
  const problem = checkInvite({ email, name });
  if (problem)
    throw new OAuthError(400, 'invalid_request', `Enter your name and email address again (${problem}).`, {
      render: 'page',
    });
  await throttleMailRequest(ctx, req, 'signup', email);
  deliverInBackground(ctx, 'sign-up', () => openAccountBySignup(ctx, email, name));
  ctx.views.sendPage(res, 'signup', { sent: true }, { title: 'Check your mail' });
}

export function createPasswordRouter(ctx: IssuerContext): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  router.get('/password/forgot', (req, res) => {
    const csrf = ensureCsrfToken(ctx, req, res);
    ctx.views.sendPage(res, 'forgot', { csrf }, { title: 'Reset your password' });
  });
  router.post('/password/forgot', form, (req, res) => handleForgot(ctx, req, res));
  router.get(SET_PASSWORD_PATH, (req, res) => showSetPassword(ctx, req, res));
  router.post(SET_PASSWORD_PATH, form, (req, res) => handleSetPassword(ctx, req, res));
  if (ctx.config.allowSignup) {
    router.get('/signup', (req, res) => {
      const csrf = ensureCsrfToken(ctx, req, res);
      ctx.views.sendPage(res, 'signup', { csrf }, { title: 'Open an account' });
    });
    router.post('/signup', form, (req, res) => handleSignup(ctx, req, res));
  }
  return router;
}
