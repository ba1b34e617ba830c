/**
 * Strong entity tags and `If-None-Match` for the issuer's fixed documents (discovery,
 * OAuth metadata, JWKS), shared by the fast path (static-documents.ts) and the Express
 * routes so both answer a conditional request alike. A client that cached a document
 * revalidates it for the cost of a 304 with no body (RFC 9110 §13.1.2, §15.4.5).
 *
 * The tag is a SHA-256 of the exact bytes sent, so it changes whenever the body does (a
 * key rotation) and is the same on every instance serving the same keys. `If-None-Match`
 * uses the weak comparison (§8.8.3.2: opaque tags equal, `W/` ignored); `*` matches the
 * document, which always exists. A field that is not a valid list of entity tags is
 * ignored as a whole, so a malformed condition gets the full 200, never a wrong 304.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A strong entity tag for a body: `"<base64url SHA-256>"`. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;
}

// One list member: an entity-tag (§8.8.3: [W/] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E
// / obs-text), then optional whitespace and a comma or the end of the field.
const MEMBER = /^[ \t]*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/;
const EMPTY_MEMBER = /^[ \t]*,/;

/** The opaque tags of an `If-None-Match` list, `'*'`, or undefined when the field is malformed. */
export function parseIfNoneMatch(field: string): string[] | '*' | undefined {
  if (field.trim() === '*') return '*';
  const tags: string[] = [];
  let rest = field;
  while (rest.trim() !== '') {
    // §5.6.1: a recipient accepts empty list members ("a, , b").
    const empty = EMPTY_MEMBER.exec(rest);
    const member = empty ? undefined : MEMBER.exec(rest);
    if (!empty && !member) return undefined;
    if (member) tags.push(member[1] ?? '');
    rest = rest.slice((empty ?? member)?.[0].length ?? rest.length);
  }
  return tags.length > 0 ? tags : undefined;
}

/** True when `If-None-Match` matches `etag` by the weak comparison, so the answer is 304. */
export function ifNoneMatchHits(field: string | string[] | undefined, etag: string): boolean {
  if (field === undefined) return false;
  // Node joins repeated If-None-Match lines with ", ", the list's own separator.
  const parsed = parseIfNoneMatch(Array.isArray(field) ? field.join(', ') : field);
  if (parsed === undefined) return false;
  if (parsed === '*') return true;
  const opaque = etag.replace(/^W\//, '').slice(1, -1);
  return parsed.includes(opaque);
}

/**
 * Sends a fixed JSON document through Express with its Cache-Control and ETag, or a 304
 * with those and no body when the request's `If-None-Match` matches.
 */
export function sendJsonDocument(
  req: Request,
  res: Response,
  document: { text: string; etag: string; cacheControl: string },
): void {
  res.set('Cache-Control', document.cacheControl).set('ETag', document.etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], document.etag)) {
    res.status(304).end();
    return;
  }
  // Not res.send: it would run Express's own freshness check (the `fresh` package, with
  // looser list parsing) over the ETag set above, and the two paths must answer alike.
  res
    .status(200)
    .set('Content-Type', 'application/json; charset=utf-8')
    .set('Content-Length', String(Buffer.byteLength(document.text)));
  if (req.method === 'HEAD') res.end();
  else res.end(document.text);
}
