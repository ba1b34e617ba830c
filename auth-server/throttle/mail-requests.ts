/**
 * Throttles the forms that send mail (forgot password, sign-up), the way the sign-in
 * throttle does: counters in the shared database, each hit one atomic upsert-increment
 * (counters.ts), so the limits hold across instances and parallel requests cannot slip
 * past. Per mailbox (keyed by a hash of the canonical mailbox, customers.ts: lower-cased,
 * `+tag` dropped, so `victim+1@` and `victim+2@` share one budget; unknown addresses are
 * counted exactly like known ones, so the answer reveals nothing): 3 in 15 minutes, 10 a
 * day; per network address: 20 in 15 minutes. The two forms share these budgets. Past a
 * limit the form answers 429 with `Retry-After` and sends nothing.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { canonicalMailbox } from '../customers.js';
import { OAuthError } from '../errors.js';
import { windowOf } from '../rate-limit/limiter.js';
import type { SignInRule } from './sign-in.js';

// The same shape of rule as sign-in's: per account or per address, a limit per window.
type MailRule = SignInRule;

export const MAIL_REQUEST_RULES: readonly MailRule[] = [
  { scope: 'account', limit: 3, windowSeconds: 15 * 60 },
  { scope: 'account', limit: 10, windowSeconds: 24 * 3600 },
  { scope: 'ip', limit: 20, windowSeconds: 15 * 60 },
];

function subjectOf(rule: MailRule, req: Request, email: string): string {
  if (rule.scope === 'account')
    return createHash('sha256').update(canonicalMailbox(email)).digest('base64url');
  return req.ip ?? 'unknown';
}

/** Counts one mail request for `email` from this address; throws the 429 page past a limit. */
export async function throttleMailRequest(
  ctx: IssuerContext,
  req: Request,
  form: 'forgot' | 'signup',
  email: string,
): Promise<void> {
  const now = nowSeconds(ctx);
  let retryAfter = 0;
  for (const rule of MAIL_REQUEST_RULES) {
    const window = windowOf(now, rule.windowSeconds);
    // One budget for both forms: a sign-up for a taken address mails a reset link, so
    // separate counters let alternating forms double the mail one mailbox receives.
    const key = `mail:${rule.scope}:${rule.windowSeconds}:${subjectOf(rule, req, email)}`;
    const count = await ctx.store.counters.hit(key, window.start, window.end);
    if (count > rule.limit) retryAfter = Math.max(retryAfter, window.end - now);
  }
  if (retryAfter === 0) return;
  ctx.logger.info('mail request throttled', { form });
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  throw new OAuthError(
    429,
    'too_many_requests',
    `Too many requests for this address. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again; a link already sent still works.`,
    { render: 'page', headers: { 'Retry-After': String(retryAfter) } },
  );
}
