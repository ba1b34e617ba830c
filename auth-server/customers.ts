/**
 * Customer accounts: creation (the `customers add` command) and the email normalisation
 * that sign-in uses too, so an address matches however it was typed.
 */
import { z } from 'zod';
import { customerName } from './customer-name.js';
import { checkNewPassword, describePasswordProblem } from './password-policy.js';
import { hashPassword } from './passwords.js';
import { generateId } from './secrets.js';
import type { Store } from './store/store.js';

/**
 * One email address (RFC 5321's 254-character path limit), the one rule every door that
 * takes an address uses: `customers add`, invitations, sign-up and the forgot-password
 * form. A display name, a list or any other string never reaches a mail's To: header or an
 * ID token's `email` claim.
 */
export const emailAddress = z.email().max(254);

/** True when the (normalised) string is exactly one email address. */
export function isEmailAddress(email: string): boolean {
  return emailAddress.safeParse(email).success;
}

const customerInput = z.object({
  email: emailAddress,
  name: customerName,
  password: z.string().superRefine((password, check) => {
    const problem = checkNewPassword(password);
    if (problem) check.addIssue({ code: 'custom', message: describePasswordProblem(problem) });
  }),
});

export type NewCustomer = z.input<typeof customerInput>;

export class CustomerInputError extends Error {
  readonly code = 'CUSTOMER_INVALID';
}

/** Lower-cases and trims an email so sign-in and creation agree. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Providers that also ignore dots in the local part, and the one domain each is known by.
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
};

/**
 * The mailbox an address delivers to, for mail budgets: lower-cased, with any `+tag` dropped
 * for every domain (Gmail, Outlook, iCloud, Fastmail, Proton and most hosts deliver
 * `name+tag@` to `name@`; for a host that does not, the cost is only a shared budget), and
 * at Gmail the dots too. Never used as the account's address, which stays as typed.
 */
export function canonicalMailbox(email: string): string {
  const normalised = normaliseEmail(email);
  const at = normalised.lastIndexOf('@');
  if (at < 1) return normalised;
  let local = normalised.slice(0, at);
  let domain = normalised.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless !== undefined) {
    domain = dotless;
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}

/** Creates a customer; returns its id, or throws CustomerInputError (bad input or email taken). */
export async function addCustomer(store: Store, input: NewCustomer, now: number): Promise<string> {
  const parsed = customerInput.safeParse({ ...input, email: normaliseEmail(input.email) });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new CustomerInputError(detail);
  }
  const id = generateId();
  const created = await store.createCustomer({
    id,
    email: parsed.data.email,
    name: parsed.data.name,
    passwordHash: await hashPassword(parsed.data.password),
    createdAt: now,
    emailVerifiedAt: null,
  });
  if (!created) throw new CustomerInputError(`a customer with email ${parsed.data.email} already exists`);
  // An unconfirmed sign-up for the address owned nothing; its link dies now.
  await store.signups.discard(parsed.data.email);
  return id;
}
