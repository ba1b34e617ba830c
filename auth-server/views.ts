/**
 * The HTML pages a person sees (sign-in, consent, account, sign-out, messages), compiled
 * once from templates/auth with Handlebars, which does the escaping. Every page goes out
 * with the same protective headers: a CSP allowing only our inline style (by hash) and
 * form posts to ourselves plus the redirect origins a form may lead to, no framing
 * (`frame-ancestors 'none'`), `Referrer-Policy: no-referrer` so codes and states never
 * leak in a Referer, and `no-store`. Nothing is loaded from third parties, and no
 * JavaScript is used.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import Handlebars from 'handlebars';
import { type MerchantIdentity, NEUTRAL_MERCHANT, supportHref } from './merchant.js';

const PAGE_NAMES = [
  'signin',
  'consent',
  'account',
  'logout',
  'message',
  'forgot',
  'set-password',
  'signup',
] as const;
export type PageName = (typeof PAGE_NAMES)[number];

export interface PageOptions {
  status?: number;
  title: string;
  /** Extra `form-action` sources (origins or `scheme:`) a form on this page may end at. */
  formActions?: readonly string[];
}

/** A message page's heading, worded around the merchant's name (the CONTRACT: every heading names it). */
export type Heading = (merchantName: string) => string;

export interface MessageExtras {
  /** The error code shown with the support contact (error pages). */
  code?: string;
  /** One link onwards ("Return to <app> at <host>"). */
  link?: { href: string; text: string };
}

export interface Views {
  sendPage(res: Response, name: PageName, data: Record<string, unknown>, options: PageOptions): void;
  /** A plain message page (errors, "signed out"); its heading and title name the merchant. */
  sendMessage(res: Response, status: number, heading: Heading, text: string, extras?: MessageExtras): void;
}

/**
 * A folder of files shipped at the package root (templates/auth, templates/mail,
 * auth-server/data), found above both auth-server/ and lib/auth-server/ by a file in it.
 */
export function findPackageDir(folder: string, marker: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(dir, folder);
    if (existsSync(join(candidate, marker))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`${folder} not found above the issuer module`);
}

function findTemplateDir(): string {
  return findPackageDir(join('templates', 'auth'), 'layout.hbs');
}

/** A CSP source for a redirect URI: its origin for http(s), its scheme for private-use URIs. */
export function formActionSource(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    return url.protocol;
  } catch {
    return undefined;
  }
}

/** Every page's title names the merchant; the sign-in page's says what it is for. */
function pageTitle(name: PageName, title: string, merchant: MerchantIdentity): string {
  if (name === 'signin') return `Sign in to ${merchant.name}`;
  return title.includes(merchant.name) ? title : `${title} – ${merchant.name}`;
}

export function loadViews(
  templateDir: string = findTemplateDir(),
  merchant: MerchantIdentity = NEUTRAL_MERCHANT,
  allowSignup = false,
): Views {
  const hbs = Handlebars.create();
  const read = (file: string) => readFileSync(join(templateDir, file), 'utf8');
  const layout = hbs.compile(read('layout.hbs'), { strict: false });
  const pages = new Map(PAGE_NAMES.map((name) => [name, hbs.compile(read(`${name}.hbs`))]));
  // The accent colour was checked to be #rrggbb, so it can join the hashed stylesheet.
  const style = `${read('style.css')}:root { --accent: ${merchant.accentColor}; }\n`;
  const styleHash = `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`;
  const imgSrc = ["'self'", merchant.logoUrl ? formActionSource(merchant.logoUrl) : undefined]
    .filter((s): s is string => s !== undefined)
    .join(' ');
  const brand = { merchant, supportHref: supportHref(merchant), allowSignup };

  function sendPage(
    res: Response,
    name: PageName,
    data: Record<string, unknown>,
    options: PageOptions,
  ): void {
    const page = pages.get(name);
    if (!page) throw new TypeError(`unknown page ${name}`);
    const formAction = ["'self'", ...new Set(options.formActions ?? [])].join(' ');
    res
      .status(options.status ?? 200)
      .set({
        'Content-Security-Policy': `default-src 'none'; style-src ${styleHash}; img-src ${imgSrc}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
        'Referrer-Policy': 'no-referrer',
        'X-Frame-Options': 'DENY',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      })
      .type('html')
      .send(
        layout({
          ...brand,
          title: pageTitle(name, options.title, merchant),
          style,
          body: page({ ...brand, ...data }),
        }),
      );
  }

  return {
    sendPage,
    sendMessage(res, status, heading, text, extras = {}) {
      const named = heading(merchant.name);
      sendPage(res, 'message', { heading: named, text, ...extras }, { status, title: named });
    },
  };
}
