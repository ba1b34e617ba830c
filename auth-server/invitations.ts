/**
 * Inviting customers: an account without a password, and a mailed link to choose one
 * (`customers invite`, and each row of `customers import`). The operator never picks or
 * sees a password. Inviting an address that already has an account changes nothing and
 * mails nothing, so running an import twice is harmless. Self sign-up checks its input by
 * the same rules (checkInvite).
 */
import { z } from 'zod';
import { CustomerInputError, emailAddress, normaliseEmail } from './customers.js';
import { findUnsafeCharacter } from './display-text.js';
import { type AccountMail, mailAccountLink } from './mail/account-mail.js';
import { generateId } from './secrets.js';
import type { Store } from './store/store.js';

// The name is shown on pages and in mail, so it keeps to the characters a client's name may
// hold (display-text.ts): no controls, bidi overrides or zero-width characters.
const inviteInput = z.object({
  email: emailAddress,
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .superRefine((name, check) => {
      const unsafe = findUnsafeCharacter(name);
      if (unsafe) check.addIssue({ code: 'custom', message: `must not contain ${unsafe}` });
    }),
});

export type InviteOutcome = 'created' | 'exists';

/** The reason an invitation's input is refused, or undefined when it is fine. */
export function checkInvite(input: { email: string; name: string }): string | undefined {
  const parsed = inviteInput.safeParse({ ...input, email: normaliseEmail(input.email) });
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/** Creates the account and mails the invitation; 'exists' (and no mail) when the address is taken. */
export async function inviteCustomer(
  store: Store,
  mail: AccountMail,
  input: { email: string; name: string },
  now: number,
): Promise<InviteOutcome> {
  const problem = checkInvite(input);
  if (problem) throw new CustomerInputError(problem);
  const customer = { id: generateId(), email: normaliseEmail(input.email), name: input.name.trim() };
  const created = await store.createCustomer({
    ...customer,
    passwordHash: '',
    createdAt: now,
    emailVerifiedAt: null,
  });
  if (!created) return 'exists';
  try {
    await mailAccountLink(mail, store, customer, 'invite', now);
  } catch (error) {
    // Undo, so the next run (an import is meant to be re-run) invites this customer again.
    await store.emailLinks.deleteCustomer(customer.id, now);
    throw error;
  }
  return 'created';
}
