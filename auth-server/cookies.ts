/**
 * The two browser cookies: the session (random 256-bit id, HttpOnly, SameSite=Lax so the
 * session survives the client's top-level redirect to /oauth/authorize, Secure and
 * `__Host-` prefixed when the issuer is https; only its SHA-256 is stored) and the CSRF
 * token, checked against a hidden form field on every POST (double submit) and also
 * binding a started sign-in to the browser that started it.
 */

import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';
import { type IssuerContext, nowSeconds } from './context.js';
import { OAuthError } from './errors.js';
import { generateSecret, hashSecret, secretsEqual } from './secrets.js';
import type { CustomerRow, SessionRow } from './store/rows.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function cookieName(ctx: IssuerContext, base: string): string {
  return ctx.config.secureCookies ? `__Host-${base}` : base;
}

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[name];
  return value !== undefined && TOKEN_SHAPE.test(value) ? value : undefined;
}

function setCookie(ctx: IssuerContext, res: Response, name: string, value: string, maxAge: number): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie({
      name,
      value,
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.secureCookies,
      path: '/',
      maxAge,
    }),
  );
}

export interface ActiveSession {
  session: SessionRow;
  customer: CustomerRow;
}

/** The signed-in customer of this browser, if its session is live. */
export async function readSession(ctx: IssuerContext, req: Request): Promise<ActiveSession | undefined> {
  const id = readCookie(req, cookieName(ctx, 'agent_auth_session'));
  if (!id) return undefined;
  const session = await ctx.store.findSession(hashSecret(id));
  if (!session || session.endedAt !== null || session.expiresAt <= nowSeconds(ctx)) return undefined;
  const customer = await ctx.store.findCustomerById(session.customerId);
  return customer ? { session, customer } : undefined;
}

/** Starts a new session for `customerId` and sets its cookie. */
export async function startSession(
  ctx: IssuerContext,
  res: Response,
  customerId: string,
): Promise<SessionRow> {
  const id = generateSecret();
  const now = nowSeconds(ctx);
  const session: SessionRow = {
    idHash: hashSecret(id),
    customerId,
    authTime: now,
    createdAt: now,
    expiresAt: now + ctx.config.sessionTtl,
    endedAt: null,
  };
  await ctx.store.createSession(session);
  setCookie(ctx, res, cookieName(ctx, 'agent_auth_session'), id, ctx.config.sessionTtl);
  return session;
}

export function clearSessionCookie(ctx: IssuerContext, res: Response): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie({
      name: cookieName(ctx, 'agent_auth_session'),
      value: '',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.secureCookies,
      path: '/',
      maxAge: 0,
    }),
  );
}

/** This browser's CSRF token, set as a cookie when it has none yet. */
export function ensureCsrfToken(ctx: IssuerContext, req: Request, res: Response): string {
  const name = cookieName(ctx, 'agent_auth_csrf');
  const existing = readCookie(req, name);
  if (existing) return existing;
  // One token per response, however many steps of the request ask for it.
  const alreadySet: unknown = res.locals.csrfToken;
  if (typeof alreadySet === 'string') return alreadySet;
  const token = generateSecret();
  res.locals.csrfToken = token;
  setCookie(ctx, res, name, token, ctx.config.sessionTtl);
  return token;
}

/** SHA-256 of the browser's CSRF cookie (binds a started sign-in to its browser). */
export function browserBinding(ctx: IssuerContext, req: Request): string | undefined {
  const token = readCookie(req, cookieName(ctx, 'agent_auth_csrf'));
  return token ? hashSecret(token) : undefined;
}

/** Refuses a POST whose hidden `csrf` field does not match the browser's CSRF cookie. */
export function verifyCsrf(ctx: IssuerContext, req: Request): void {
  const cookieToken = readCookie(req, cookieName(ctx, 'agent_auth_csrf'));
  const body: unknown = req.body;
  const formToken =
    typeof body === 'object' && body !== null && 'csrf' in body && typeof body.csrf === 'string'
      ? body.csrf
      : '';
  if (!cookieToken || !secretsEqual(cookieToken, formToken)) {
    throw new OAuthError(
      403,
      'invalid_request',
      'the form was not submitted from this site; reload the page and try again',
      {
        render: 'page',
      },
    );
  }
}
