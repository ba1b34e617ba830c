/**
 * The issuer's messages (invitation, password reset, sign-up confirmation, deletion notice)
 * composed from templates/mail: each has a text part and an HTML part, both naming the
 * merchant. Templates are compiled once; Handlebars escapes the HTML part, and the text part
 * is compiled without escaping because it is not HTML.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { MerchantIdentity } from '../merchant.js';
import { findPackageDir } from '../views.js';
import type { MailMessage } from './mailer.js';

export type MessageKind = 'invite' | 'reset' | 'signup' | 'deleted';

const KINDS: readonly MessageKind[] = ['invite', 'reset', 'signup', 'deleted'];

export interface MessageInput {
  to: string;
  name?: string;
  link?: string;
  /** How long the link works, in words ("30 minutes"). */
  validFor?: string;
}

export type ComposeMessage = (kind: MessageKind, input: MessageInput) => MailMessage;

function subjectOf(kind: MessageKind, merchant: MerchantIdentity): string {
  switch (kind) {
    case 'invite':
      return `Your ${merchant.name} account: choose a password`;
    case 'reset':
      return `Reset your ${merchant.name} password`;
    case 'signup':
      return `Confirm your email for ${merchant.name}`;
    case 'deleted':
      return `Your ${merchant.name} account was deleted`;
  }
}

/** Compiles every message template once and returns the composer. */
export function loadMessages(
  merchant: MerchantIdentity,
  templateDir: string = findPackageDir(join('templates', 'mail'), 'layout.html.hbs'),
): ComposeMessage {
  const html = Handlebars.create();
  const text = Handlebars.create();
  const read = (file: string) => readFileSync(join(templateDir, file), 'utf8');
  const layout = html.compile(read('layout.html.hbs'));
  const parts = new Map(
    KINDS.map((kind) => [
      kind,
      {
        html: html.compile(read(`${kind}.html.hbs`)),
        text: text.compile(read(`${kind}.text.hbs`), { noEscape: true }),
      },
    ]),
  );
  return (kind, input) => {
    const part = parts.get(kind);
    if (!part) throw new TypeError(`unknown message ${kind}`);
    const subject = subjectOf(kind, merchant);
    const data = { ...input, email: input.to, merchant, subject };
    return {
      to: input.to,
      subject,
      text: part.text(data),
      html: layout({ ...data, body: part.html(data) }),
      ...(input.link ? { link: input.link } : {}),
    };
  };
}
