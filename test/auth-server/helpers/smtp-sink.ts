/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it
 * receives, parsed by `mailparser`, so tests read exactly what a mail client would get.
 * `waitForMail` resolves when a message to an address arrives (or fails after a while).
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Whether the message came over TLS (implicit or after STARTTLS). */
  secure: boolean;
  parsed: ParsedMail;
}

export interface SmtpSink {
  /**
   * smtps://127.0.0.1:<port> with TLS from the start, smtp://… with STARTTLS, and
   * smtp+insecure://… (plain SMTP, which the issuer allows only to a loopback relay) without.
   */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** The user names of every AUTH the server accepted, in order (their passwords were seen too). */
  auths: string[];
  /** The next message to `to` after the `seen`-th one to that address. */
  waitForMail(to: string, seen?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function addressText(value: ParsedMail['to'] | ParsedMail['from']): string {
  if (value === undefined) return '';
  const list = Array.isArray(value) ? value : [value];
  return list.map((a) => a.text).join(', ');
}

/**
 * `delayMs` holds each message that long before accepting it (a slow mail server); `tls`
 * chooses plain SMTP (default), STARTTLS, or TLS from the start (smtp-server's own
 * self-signed certificate, so clients must be told not to verify it).
 */
export async function startSmtpSink(
  options: { delayMs?: number; tls?: 'none' | 'starttls' | 'implicit' } = {},
): Promise<SmtpSink> {
  const tls = options.tls ?? 'none';
  const messages: ReceivedMail[] = [];
  const auths: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Like a relay (or something on the path) that takes a password in clear: so a test
    // sees whether the client ever offered one without TLS.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      auths.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    secure: tls === 'implicit',
    disabledCommands: tls === 'none' ? ['STARTTLS'] : [],
    logger: false,
    onData(stream, session, callback) {
      const held = new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      simpleParser(stream)
        .then(async (parsed) => {
          await held;
          return parsed;
        })
        .then(
          (parsed) => {
            messages.push({
              to: addressText(parsed.to).toLowerCase(),
              from: addressText(parsed.from),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              secure: session.secure,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const scheme = { implicit: 'smtps', starttls: 'smtp', none: 'smtp+insecure' }[tls];
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    messages,
    auths,
    async waitForMail(to, seen = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter((m) => m.to.includes(to.toLowerCase()))[seen];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail number ${seen + 1} to ${to} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text part that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link to ${prefix} in "${mail.subject}"`);
  return link;
}
