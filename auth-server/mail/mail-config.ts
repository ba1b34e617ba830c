/**
 * The issuer's mail and merchant-identity settings, as part of its config schema: where the
 * merchant is described (`--catalog-config`), how mail leaves (SMTP or the local outbox) and
 * whether customers may open accounts themselves. Kept beside the mail code so config.ts
 * only spreads them in. One rule spans keys: an issuer on https serves real customers, so it
 * must not silently drop their mail into a local folder; it needs SMTP, or `--mail outbox`
 * saying that is meant.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

/** Plain SMTP, without TLS: only ever to a relay on this machine (ASVS 9.2.2: no fallback to clear text). */
export const INSECURE_SMTP_SCHEME = 'smtp+insecure:';

// nodemailer reads its options from the URL's query too; these would undo the TLS rule.
const TLS_OVERRIDES = ['requiretls', 'ignoretls', 'opportunistictls', 'secure'];

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** What is wrong with an SMTP URL, or undefined: the scheme, and plain SMTP only to loopback. */
export function checkSmtpUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an smtps://, smtp:// or smtp+insecure:// URL';
  }
  if (![INSECURE_SMTP_SCHEME, 'smtp:', 'smtps:'].includes(url.protocol))
    return 'must be an smtps:// (TLS), smtp:// (STARTTLS required) or smtp+insecure:// (loopback relay only) URL';
  const override = [...url.searchParams.keys()].find((key) => TLS_OVERRIDES.includes(key.toLowerCase()));
  if (override) return `must not set ${override}: smtp:// always requires STARTTLS and smtps:// is TLS`;
  const unchecked = url.searchParams.get('tls.rejectUnauthorized') === 'false';
  if (unchecked && !isLoopbackHost(url.hostname))
    return `must not set tls.rejectUnauthorized=false for ${url.hostname}: the server's certificate is checked, except for a relay on this machine`;
  if (url.protocol === INSECURE_SMTP_SCHEME && !isLoopbackHost(url.hostname))
    return `smtp+insecure:// (plain SMTP, no TLS) is only for a relay on this machine (127.0.0.1, ::1 or localhost), not ${url.hostname}; use smtps:// or smtp:// (STARTTLS)`;
  return undefined;
}

export const mailConfigShape = {
  /** The catalog's config file; the merchant's name, logo, store link and support contact come from it. */
  catalogConfig: z.string().min(1).default('./catalog.config.json'),
  /**
   * SMTP server URL: smtps:// (TLS from the start), smtp:// (STARTTLS required, never a
   * fallback to clear text) or smtp+insecure:// (plain SMTP, loopback relays only); credentials may be in it.
   */
  smtpUrl: z
    .string()
    .superRefine((value, check) => {
      const problem = checkSmtpUrl(value);
      if (problem) check.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
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
