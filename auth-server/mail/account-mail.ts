/**
 * The mail an account gets, with what makes it safe: each action link carries a fresh
 * 256-bit token stored only as its hash, single-use, and short-lived (30 minutes for a
 * password reset, as the issue asks; an invitation waits 7 days for a customer who was not
 * expecting it; a sign-up confirmation 24 hours). A newer link of the same kind replaces an
 * older unused one. The issuer's pages and the CLI (`customers invite`, `customers import`)
 * share this one path.
 */
import type { IssuerConfig } from '../config.js';
import { nameForMail } from '../customer-name.js';
import type { Logger } from '../logger.js';
import { loadMerchantIdentity, type MerchantIdentity } from '../merchant.js';
import { generateId, generateSecret, hashSecret } from '../secrets.js';
import type { EmailTokenPurpose } from '../store/email-link-queries.js';
import type { CustomerRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { mailTransportOf } from './mail-config.js';
import { createMailer, defaultMailFrom, type Mailer } from './mailer.js';
import { type ComposeMessage, loadMessages } from './messages.js';

export const LINK_LIFETIMES: Readonly<Record<EmailTokenPurpose, { seconds: number; words: string }>> = {
  reset: { seconds: 30 * 60, words: '30 minutes' },
  invite: { seconds: 7 * 24 * 3600, words: '7 days' },
  signup: { seconds: 24 * 3600, words: '24 hours' },
};

/** The path of the page every mailed link opens (the token is in its query). */
export const SET_PASSWORD_PATH = '/password/set';

export interface AccountMail {
  merchant: MerchantIdentity;
  mailer: Mailer;
  compose: ComposeMessage;
  /** The issuer identifier: links are built from it, never from a request's Host. */
  issuer: string;
}

/** Composes the message carrying `token`'s link and sends it (or only rehearses the send). */
async function sendLink(
  mail: AccountMail,
  to: string,
  name: string | undefined,
  purpose: EmailTokenPurpose,
  token: string,
  deliver = true,
): Promise<void> {
  const link = new URL(`${mail.issuer}${SET_PASSWORD_PATH}`);
  link.searchParams.set('token', token);
  const validFor = LINK_LIFETIMES[purpose].words;
  const message = mail.compose(purpose, { to, ...(name ? { name } : {}), link: link.href, validFor });
  await (deliver ? mail.mailer.send(message) : mail.mailer.rehearse(message));
}

/**
 * Creates a token for `purpose`, mails its link to the customer and resolves once sent. The
 * greeting names the customer only once the address is confirmed (customer-name.ts).
 */
export async function mailAccountLink(
  mail: AccountMail,
  store: Store,
  customer: Pick<CustomerRow, 'id' | 'email' | 'name' | 'emailVerifiedAt'>,
  purpose: EmailTokenPurpose,
  now: number,
  deliver = true,
): Promise<void> {
  const token = generateSecret();
  await store.emailLinks.createToken({
    tokenHash: hashSecret(token),
    customerId: customer.id,
    purpose,
    createdAt: now,
    expiresAt: now + LINK_LIFETIMES[purpose].seconds,
    usedAt: null,
  });
  await sendLink(mail, customer.email, nameForMail(customer), purpose, token, deliver);
}

/**
 * The same work as mailing a `purpose` link, for an address without an account, and no mail
 * (issue 23, finding 3): the same token write, for an id no customer has (the token is never
 * shown to anyone and dies at its expiry), the same message built, and the SMTP exchange
 * short of sending. So neither the answer nor the request after it tells the two apart.
 */
export function rehearseAccountLink(
  mail: AccountMail,
  store: Store,
  email: string,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<void> {
  const decoy = { id: generateId(), email, name: '', emailVerifiedAt: null };
  return mailAccountLink(mail, store, decoy, purpose, now, false);
}

/**
 * Keeps a sign-up pending (signup-queries.ts) and mails the link that confirms it. The name
 * waits with it, unused: the message says "Hello," alone, since a stranger may have typed it.
 */
export async function mailSignupLink(
  mail: AccountMail,
  store: Store,
  signup: { email: string; name: string },
  now: number,
): Promise<void> {
  const token = generateSecret();
  await store.signups.createPending({
    tokenHash: hashSecret(token),
    ...signup,
    createdAt: now,
    expiresAt: now + LINK_LIFETIMES.signup.seconds,
  });
  await sendLink(mail, signup.email, undefined, 'signup', token);
}

/** Loads the merchant and opens the mail transport the config names. */
/** The merchant from `--catalog-config`: the default path may be absent on a first run; a path someone gave must exist. */
export function loadIssuerMerchant(config: Pick<IssuerConfig, 'catalogConfig'>): Promise<MerchantIdentity> {
  return loadMerchantIdentity(config.catalogConfig, config.catalogConfig !== './catalog.config.json');
}

/** `merchant`: one the caller already loaded (serve reads it before it opens anything). */
export async function createAccountMail(
  config: IssuerConfig,
  logger: Logger,
  loaded?: MerchantIdentity,
): Promise<AccountMail> {
  const merchant = loaded ?? (await loadIssuerMerchant(config));
  const mailer = createMailer({
    transport: mailTransportOf(config),
    from: config.mailFrom ?? defaultMailFrom(config.issuer, merchant.name),
    ...(config.smtpUrl !== undefined ? { smtpUrl: config.smtpUrl } : {}),
    outboxDir: config.outboxDir,
    logger,
  });
  return { merchant, mailer, compose: loadMessages(merchant), issuer: config.issuer };
}
