/**
 * The issuer's mail and merchant-identity settings, as part of its config schema: where the
 * merchant is described (`--catalog-config`), how mail leaves (SMTP or the local outbox) and
 * whether customers may open accounts themselves. Kept beside the mail code so config.ts
 * only spreads them in. One rule spans keys: an issuer on https serves real customers, so it
 * must not silently drop their mail into a local folder; it needs SMTP, or `--mail outbox`
 * saying that is meant.
 */
import { z } from 'zod';

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'smtp:' || url.protocol === 'smtps:';
  } catch {
    return false;
  }
}

export const mailConfigShape = {
  /** The catalog's config file; the merchant's name, logo, store link and support contact come from it. */
  catalogConfig: z.string().min(1).default('./catalog.config.json'),
  /** SMTP server URL (smtp:// with STARTTLS, smtps:// for TLS from the start); credentials may be in it. */
  smtpUrl: z.string().refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL').optional(),
  /** The From address of every message; default: no-reply at the issuer's host. */
  mailFrom: z.string().min(3).max(320).optional(),
  /** `outbox` writes each message as an .eml file under `outboxDir` instead of sending it. */
  mail: z.enum(['outbox', 'smtp']).optional(),
  /** Where the outbox writes its .eml files. */
  outboxDir: z.string().min(1).default('data/outbox'),
  /** Lets people open an account themselves (verified by a mailed link before it can sign in). */
  allowSignup: z.boolean().default(false),
};

export const MAIL_CONFIG_SOURCES: Readonly<Record<string, string>> = {
  catalogConfig: '--catalog-config (AUTH_CATALOG_CONFIG)',
  smtpUrl: '--smtp-url (AUTH_SMTP_URL)',
  mailFrom: '--mail-from',
  mail: '--mail',
};

interface MailSettings {
  smtpUrl?: string | undefined;
  mail?: 'outbox' | 'smtp' | undefined;
}

/** The cross-key rule; returns what is wrong, or undefined. */
export function checkMailConfig(value: MailSettings, issuer: string): string | undefined {
  if (value.mail === 'smtp' && value.smtpUrl === undefined)
    return '--mail smtp needs --smtp-url (AUTH_SMTP_URL)';
  if (issuer.startsWith('https:') && value.smtpUrl === undefined && value.mail !== 'outbox')
    return 'an https issuer mails real customers: give --smtp-url (AUTH_SMTP_URL), or --mail outbox to write messages to the outbox folder on purpose';
  return undefined;
}

/** Which transport is in effect: SMTP when a URL is given and the outbox was not asked for. */
export function mailTransportOf(value: MailSettings): 'outbox' | 'smtp' {
  return value.mail !== 'outbox' && value.smtpUrl !== undefined ? 'smtp' : 'outbox';
}
