/**
 * Slows password guessing (RFC 9700 §4.x; OWASP ASVS V2.2.1): sign-in attempts are counted
 * per account and per network address in the shared database, so the limits hold however
 * many instances serve the sign-in form. Per account, an attempt is counted before the
 * password is checked (so parallel guesses cannot slip past the count) and a good sign-in
 * forgets the account's count; past 5 attempts in 15 minutes, or 30 in a day, the account
 * is locked until its window ends. Per address, only failures count (many customers may
 * share one address), 50 in 15 minutes. A locked sign-in is refused with one clear page
 * (429 and `Retry-After`) without checking the password, and the page and the counting are
 * the same whether or not the account exists, so neither reveals which emails have accounts.
 * Both counts are reserved atomically before the password is checked, so concurrent
 * attempts cannot all read the same count; a good sign-in gives its address reservation back.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { type IssuerContext, nowSeconds } from '../context.js';
import { normaliseEmail } from '../customers.js';
import { OAuthError } from '../errors.js';
import { windowOf } from '../rate-limit/limiter.js';

export interface SignInRule {
  scope: 'account' | 'ip';
  limit: number;
  windowSeconds: number;
}

export const SIGN_IN_RULES: readonly SignInRule[] = [
  { scope: 'account', limit: 5, windowSeconds: 15 * 60 },
  { scope: 'account', limit: 30, windowSeconds: 24 * 3600 },
  { scope: 'ip', limit: 50, windowSeconds: 15 * 60 },
];

interface CountedRule {
  rule: SignInRule;
  key: string;
  window: { start: number; end: number };
}

function subjectOf(rule: SignInRule, req: Request, email: string): string {
  // The account key is a hash: the counters table need not hold customers' addresses.
  if (rule.scope === 'account') return createHash('sha256').update(normaliseEmail(email)).digest('base64url');
  return req.ip ?? 'unknown';
}

function countedRules(req: Request, email: string, now: number): CountedRule[] {
  return SIGN_IN_RULES.map((rule) => ({
    rule,
    key: `signin:${rule.scope}:${rule.windowSeconds}:${subjectOf(rule, req, email)}`,
    window: windowOf(now, rule.windowSeconds),
  }));
}

function lockedError(retryAfter: number): OAuthError {
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return new OAuthError(
    429,
    'too_many_attempts',
    `Too many sign-in attempts. For your protection, signing in is paused; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { render: 'page', headers: { 'Retry-After': String(retryAfter) } },
  );
}

/**
 * Runs `attempt` (the password check) unless the account or address is locked; counts the
 * attempt and returns its result. Throws the 429 page when locked.
 */
export async function throttleSignIn<T>(
  ctx: IssuerContext,
  req: Request,
  email: string,
  attempt: () => Promise<T | false>,
): Promise<T | false> {
  const now = nowSeconds(ctx);
  const rules = countedRules(req, email, now);
  const counters = ctx.store.counters;
  let retryAfter = 0;
  // Every rule reserves its attempt with one atomic increment before the slow password
  // check; reading the count and adding after the check let 58 parallel attempts all pass.
  for (const { rule, key, window } of rules) {
    const count = await counters.hit(key, window.start, window.end);
    if (count > rule.limit) retryAfter = Math.max(retryAfter, window.end - now);
  }
  if (retryAfter > 0) {
    ctx.logger.info('sign-in throttled', {});
    throw lockedError(retryAfter);
  }
  const result = await attempt();
  if (result !== false) {
    // Only failures count per address (many customers may share one): give the reservation back.
    for (const { rule, key, window } of rules) {
      if (rule.scope === 'account') await counters.clear(key);
      else await counters.release(key, window.start);
    }
  }
  return result;
}
