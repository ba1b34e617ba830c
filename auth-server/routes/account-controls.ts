/**
 * The customer's own controls on /account beyond the app list: changing the password (the
 * current one required; other sessions end) and deleting the account (confirmed by the
 * password). Deletion erases the customer's row (name, email, password hash), consents,
 * sessions and mailed-link tokens and revokes every grant, refresh tokens included; what
 * remains are revoked grant rows keyed by a random id, until the clean-up removes them a day
 * later. A confirmation goes to the address that was deleted. Both forms go through the
 * sign-in throttle, since each checks a password.
 */
import express, { type Request, type Response, Router } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { type ActiveSession, clearSessionCookie, readSession, verifyCsrf } from '../cookies.js';
import { checkNewPassword, describePasswordProblem } from '../password-policy.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { throttleSignIn } from '../throttle/sign-in.js';
import { renderAccount } from './account.js';
import { deliverInBackground } from './account-mail-tasks.js';
import { readForm } from './session.js';

async function passwordMatches(ctx: IssuerContext, req: Request, active: ActiveSession, password: string) {
  const result = await throttleSignIn(ctx, req, active.customer.email, () =>
    verifyPassword(password, active.customer.passwordHash),
  );
  return result === true;
}

async function handleChangePassword(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const active = await readSession(ctx, req);
  if (!active) return res.redirect(303, '/account');
  const form = readForm(req.body, ['current_password', 'new_password']);
  if (!(await passwordMatches(ctx, req, active, form.current_password ?? ''))) {
    return renderAccount(ctx, req, res, { problem: 'Your current password was not right.', status: 400 });
  }
  const problem = checkNewPassword(form.new_password ?? '');
  if (problem)
    return renderAccount(ctx, req, res, { problem: describePasswordProblem(problem), status: 400 });
  const hash = await hashPassword(form.new_password ?? '');
  await ctx.store.emailLinks.changePassword(active.customer.id, hash, active.session.idHash, nowSeconds(ctx));
  ctx.logger.info('password changed by customer', { customerId: active.customer.id });
  await renderAccount(ctx, req, res, { notice: 'Your password is changed. Other devices were signed out.' });
}

async function handleDelete(ctx: IssuerContext, req: Request, res: Response): Promise<void> {
  verifyCsrf(ctx, req);
  const active = await readSession(ctx, req);
  if (!active) return res.redirect(303, '/account');
  const form = readForm(req.body, ['password']);
  if (!(await passwordMatches(ctx, req, active, form.password ?? ''))) {
    return renderAccount(ctx, req, res, {
      problem: 'That password was not right, so the account was not deleted.',
      status: 400,
    });
  }
  const { id, email } = active.customer;
  await ctx.store.emailLinks.deleteCustomer(id, nowSeconds(ctx));
  clearSessionCookie(ctx, res);
  ctx.logger.info('account deleted by customer', { customerId: id });
  deliverInBackground(ctx, 'deletion notice', () =>
    ctx.mail.mailer.send(ctx.mail.compose('deleted', { to: email })),
  );
  ctx.views.sendMessage(
    res,
    200,
    (merchant) => `Your ${merchant} account is deleted`,
    'Your name, email address and password were erased, and every app you had allowed lost its access. A confirmation is on its way to your mailbox.',
  );
}

export function createAccountControlsRouter(ctx: IssuerContext): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });
  router.post('/account/password', form, (req, res) => handleChangePassword(ctx, req, res));
  router.post('/account/delete', form, (req, res) => handleDelete(ctx, req, res));
  return router;
}
