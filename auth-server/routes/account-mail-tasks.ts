/**
 * The mail work behind the forms that must not reveal whether an account exists (forgot
 * password, sign-up). It runs after the answer has been sent, so a known address and an
 * unknown one take the same time to answer, and it is the same work either way (a decoy job
 * for an unknown address), so the request after the answer does not tell them apart either;
 * a failure is logged (never with the address or
 * the link) and the person, who was told only that a link may be on its way, can ask again.
 */
import { randomInt } from 'node:crypto';
import { type IssuerContext, nowSeconds } from '../context.js';
import { mailAccountLink, mailSignupLink, rehearseAccountLink } from '../mail/account-mail.js';

/**
 * What a failed delivery may log: nodemailer's error code and the SMTP reply code. Not the
 * message: a refused recipient's message quotes the server's reply, which quotes the address,
 * and a logged address would tell which forgot-password requests matched an account.
 */
function mailFailureOf(error: unknown): { code: string; responseCode: number | null } {
  const fields = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  return {
    code: typeof fields.code === 'string' ? fields.code : 'unknown',
    responseCode: typeof fields.responseCode === 'number' ? fields.responseCode : null,
  };
}

// The work starts a random moment after the answer, not at once: a request sent right after
// the answer then rarely meets it, and what is left of the difference between a send and its
// rehearsal (the message's DATA) is spread out (issue 23, finding 3).
const START_AFTER_MS = { min: 10, max: 60 };

/** Runs `work` without holding up the response, a little later; logs a failure. */
export function deliverInBackground(ctx: IssuerContext, what: string, work: () => Promise<void>): void {
  setTimeout(
    () => {
      work().catch((error: unknown) => {
        ctx.logger.error('mail could not be sent', { what, ...mailFailureOf(error) });
      });
    },
    randomInt(START_AFTER_MS.min, START_AFTER_MS.max),
  );
}

/**
 * Mails a reset link when the address has an account; otherwise does the same work without
 * the mail (a decoy job), so the request after the answer is not slower for a real account.
 */
export async function mailResetLink(ctx: IssuerContext, email: string): Promise<void> {
  const customer = await ctx.store.findCustomerByEmail(email);
  if (!customer) return rehearseAccountLink(ctx.mail, ctx.store, email, 'reset', nowSeconds(ctx));
  await mailAccountLink(ctx.mail, ctx.store, customer, 'reset', nowSeconds(ctx));
}

/**
 * Keeps the sign-up pending and mails the link that confirms the address and sets a
 * password; the account exists only once that link is followed (signup-queries.ts), so an
 * unconfirmed sign-up owns nothing. An address that already has an account gets a reset
 * link instead, which tells its owner and reveals nothing to whoever filled in the form.
 */
export async function openAccountBySignup(ctx: IssuerContext, email: string, name: string): Promise<void> {
  const customer = await ctx.store.findCustomerByEmail(email);
  if (customer) return mailAccountLink(ctx.mail, ctx.store, customer, 'reset', nowSeconds(ctx));
  await mailSignupLink(ctx.mail, ctx.store, { email, name }, nowSeconds(ctx));
}
