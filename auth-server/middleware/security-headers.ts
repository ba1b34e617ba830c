/**
 * Protective headers on every response, set before any route runs so that even a 404, a
 * 413 or a 429 carries them: `nosniff`, `Referrer-Policy: no-referrer` (codes and states
 * must never leak in a Referer, RFC 6749 §10.6 and RFC 9700 §4.2.4), no framing, and a CSP
 * that lets a non-HTML response load nothing at all. The HTML pages replace that CSP with
 * their own (views.ts: the page's style hash, its form targets, `frame-ancestors 'none'`).
 * HSTS (RFC 6797) is sent only when the issuer identifier is https: on plain http a browser
 * ignores it, and on a loopback development issuer it would only get in the way.
 *
 * helmet decides the headers; none of them depends on the request, so helmet runs once,
 * against a response that is never sent, and every request replays the list it set
 * (`securityHeaderList`). The middleware and the fast path for the fixed documents
 * (static-documents.ts) send that same list: one policy, paid for once.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

const HSTS_MAX_AGE = 365 * 24 * 3600;

/** A header as sent: its name as spelled, and its value. */
export type HeaderEntry = readonly [name: string, value: string];

function createHelmet(issuer: string) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: issuer.startsWith('https:')
      ? { maxAge: HSTS_MAX_AGE, includeSubDomains: false }
      : false,
    // The CORS middleware relaxes this to cross-origin on the endpoints browsers may call.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
}

/** Applies `later` over `earlier` as successive `setHeader` calls would: a name set again keeps its place. */
export function overlayHeaders(
  earlier: readonly HeaderEntry[],
  later: readonly HeaderEntry[],
): HeaderEntry[] {
  const out = [...earlier];
  for (const entry of later) {
    const at = out.findIndex(([name]) => name.toLowerCase() === entry[0].toLowerCase());
    if (at === -1) out.push(entry);
    else out[at] = entry;
  }
  return out;
}

/** A response that is never sent and remembers the headers set on it, spelled as set. */
class RecordingResponse extends ServerResponse {
  recorded: HeaderEntry[] = [];

  override setHeader(name: string, value: number | string | readonly string[]): this {
    this.recorded = overlayHeaders(this.recorded, [[name, String(value)]]);
    return super.setHeader(name, value);
  }

  override removeHeader(name: string): void {
    this.recorded = this.recorded.filter(([set]) => set.toLowerCase() !== name.toLowerCase());
    super.removeHeader(name);
  }
}

/** The headers helmet sets on every response of an issuer with this identifier, in order. */
export function securityHeaderList(issuer: string): HeaderEntry[] {
  const req = new IncomingMessage(new Socket());
  const res = new RecordingResponse(req);
  let called = false;
  createHelmet(issuer)(req, res, () => {
    called = true;
  });
  // helmet calls next() synchronously; if a future version stops doing so, fail loudly here
  // rather than serve responses without the policy.
  if (!called) throw new Error('helmet did not finish synchronously');
  return res.recorded;
}

export function createSecurityHeadersMiddleware(issuer: string): RequestHandler {
  const headers = securityHeaderList(issuer);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
