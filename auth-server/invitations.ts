/**
 * Inviting customers: an account without a password, and a mailed link to choose one
 * (`customers invite`, and each row of `customers import`). The operator never picks or
 * sees a password. Inviting an address that already has an account changes nothing and
 * mails nothing, so running an import twice is harmless; an unconfirmed sign-up is no
 * account, so the invitation takes that address over and its sign-up link dies. Self sign-up checks its input by
 * the same rules (checkInvite).
 */
import { z } from 'zod';
import { customerName } from './customer-name.js';
import { CustomerInputError, emailAddress, normaliseEmail } from './customers.js';
import { type AccountMail, mailAccountLink } from './mail/account-mail.js';
import { generateId } from './secrets.js';
import type { Store } from './store/store.js';

// The name is shown on pages and reaches apps: customer-name.ts's rule (no controls, bidi
// overrides, zero-width characters or web addresses).
const inviteInput = z.object({ email: emailAddress, name: customerName });

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
  // An unconfirmed sign-up for the address owned nothing: the merchant's invitation takes over.
  await store.signups.discard(customer.email);
  try {
    await mailAccountLink(mail, store, customer, 'invite', now);
  } catch (error) {
    // Undo, so the next run (an import is meant to be re-run) invites this customer again.
    await store.emailLinks.deleteCustomer(customer.id, now);
    throw error;
  }
  return 'created';
}
