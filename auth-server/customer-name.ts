/**
 * The one rule for a customer's name, wherever it comes from (sign-up, `customers add`,
 * `invite`, `import`), and when it may appear in mail. A name reaches every app as the
 * `name` claim and is shown on pages, so it keeps to a person's name: at most 100
 * characters, none a control, bidi or invisible character (display-text.ts), and no web
 * address (a scheme, `www.` or a `word.tld`), so the merchant's mail cannot be made to carry
 * a stranger's link (issue 23, finding 7). The cost: a name written `J.Smith` is refused;
 * `J. Smith` is fine.
 */
import { z } from 'zod';
import { findUnsafeCharacter } from './display-text.js';

export const MAX_NAME_LENGTH = 100;

// A URL scheme, www., an address, or a dotted host ending in a top-level domain.
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|@|[\p{L}\p{N}-]\.\p{L}{2,}(?!\p{L})/iu;

/** True when `text` holds something a mail reader could take for a link. */
export function looksLikeLink(text: string): boolean {
  return LINK_LIKE.test(text);
}

export const customerName = z
  .string()
  .trim()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .superRefine((name, check) => {
    const unsafe = findUnsafeCharacter(name);
    if (unsafe) check.addIssue({ code: 'custom', message: `must not contain ${unsafe}` });
    else if (looksLikeLink(name))
      check.addIssue({ code: 'custom', message: 'must not contain a web address' });
  });

/**
 * The name a mail may greet the customer by: none before the address is confirmed (a
 * stranger may have typed it), and none that looks like a link (an older row).
 */
export function nameForMail(customer: { name: string; emailVerifiedAt?: number | null }): string | undefined {
  if (customer.emailVerifiedAt === null || customer.emailVerifiedAt === undefined) return undefined;
  return looksLikeLink(customer.name) || findUnsafeCharacter(customer.name) ? undefined : customer.name;
}
