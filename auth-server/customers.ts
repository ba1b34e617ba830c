/**
 * Customer accounts: creation (the `customers add` command) and the email normalisation
 * that sign-in uses too, so an address matches however it was typed.
 */
import { z } from 'zod';
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
  name: z.string().trim().min(1).max(200),
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
  return id;
}
