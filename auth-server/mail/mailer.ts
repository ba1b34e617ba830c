/**
 * How the issuer's mail leaves: over SMTP with nodemailer (`smtp://` must upgrade with
 * STARTTLS, nodemailer's `requireTLS`, so a server that does not offer it, or a path that
 * strips it, gets neither a password nor a link; `smtps://` is TLS from the start;
 * `smtp+insecure://` is plain SMTP to a loopback relay, allowed by mail-config.ts only
 * there), or, for a newcomer running it locally, into
 * an outbox folder as one `.eml` file per message. The outbox logs one line with the file's
 * path and the link inside, on purpose: it is a local development transport whose files
 * already hold the link in the clear, so the line reveals nothing the folder does not, and
 * it is what lets someone trying the issuer click through without a mail server. SMTP
 * delivery logs no link, no address and no token, only that a message went out.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { isEmailAddress } from '../customers.js';
import type { Logger } from '../logger.js';
import { checkSmtpUrl, INSECURE_SMTP_SCHEME } from './mail-config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one action link in the message, if any (logged by the outbox only). */
  link?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /**
   * The work of a send without the mail, for an address that must not get one (the decoy of
   * a forgot-password request for an unknown address): the message is built as for sending
   * and, over SMTP, the server is connected to, greeted, TLS and AUTH done, and left (QUIT),
   * so the issuer's work and its traffic look like a send. The outbox, a development
   * transport, does nothing.
   */
  rehearse(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  transport: 'smtp' | 'outbox';
  from: string;
  smtpUrl?: string;
  outboxDir: string;
  logger: Logger;
}

function envelope(from: string, message: MailMessage) {
  // The last guard before a header: every caller validates, and this makes sure of it.
  if (!isEmailAddress(message.to)) throw new TypeError('a mail recipient must be exactly one email address');
  return { from, to: message.to, subject: message.subject, text: message.text, html: message.html };
}

/**
 * nodemailer's options for a configured URL: TLS required unless the URL says plain SMTP on
 * purpose. The config refused a bad URL already; this refuses one that did not come through
 * it (nodemailer lets the URL's query override the options, `requireTLS=false` included).
 */
export function smtpTransportOptions(url: string): { url: string; requireTLS: boolean } {
  const problem = checkSmtpUrl(url);
  if (problem) throw new TypeError(`SMTP URL ${problem}`);
  if (url.startsWith(INSECURE_SMTP_SCHEME))
    return { url: `smtp:${url.slice(INSECURE_SMTP_SCHEME.length)}`, requireTLS: false };
  return { url, requireTLS: true };
}

function createSmtpMailer(from: string, url: string, logger: Logger): Mailer {
  const transporter = nodemailer.createTransport(smtpTransportOptions(url));
  // Builds a message exactly as a send would, without a connection (rehearse).
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail(envelope(from, message));
      logger.info('mail sent', { messageId: info.messageId });
    },
    async rehearse(message) {
      await composer.sendMail(envelope(from, message));
      await transporter.verify();
    },
    close: () => transporter.close(),
  };
}

function createOutboxMailer(from: string, dir: string, logger: Logger): Mailer {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = resolve(dir);
  return {
    transport: 'outbox',
    async send(message) {
      const info = await transporter.sendMail(envelope(from, message));
      const body: unknown = info.message;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, Buffer.isBuffer(body) ? body : String(body), { mode: 0o600 });
      logger.info('mail written to the outbox', { file, link: message.link ?? null });
    },
    async rehearse() {},
    close() {},
  };
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.transport === 'smtp' && options.smtpUrl !== undefined)
    return createSmtpMailer(options.from, options.smtpUrl, options.logger);
  return createOutboxMailer(options.from, options.outboxDir, options.logger);
}

/** The default From: no-reply at the issuer's host. */
export function defaultMailFrom(issuer: string, merchantName: string): string {
  const host = new URL(issuer).hostname;
  // An address literal or a bare name is no mail domain; loopback runs get "localhost".
  const domain = isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !host.includes('.') ? 'localhost' : host;
  return `"${merchantName.replace(/["\\\r\n]/g, '')}" <no-reply@${domain}>`;
}
