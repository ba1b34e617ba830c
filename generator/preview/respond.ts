/**
 * Writes the preview's responses: a bundle file with the headers its `_headers` rules
 * give it (ETag, `If-None-Match` → 304, HEAD without a body, CORS preflight), and errors.
 * Errors on API paths (under the catalog's base path and `/.well-known/`) are JSON
 * `{"error": "..."}` bodies, as the spec's part 7 shapes them; elsewhere a plain 404, or
 * the bundle's own `404.html` when it has one, as Netlify serves it.
 */
import { readFile } from 'node:fs/promises';
import type { Request, Response } from 'express';
import { matchesIfNoneMatch } from './conditional.js';
import { contentTypeFor } from './content-types.js';
import { collectHeaders, type HostingRules } from './hosting-rules.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** What Netlify sends when no rule sets Cache-Control: always revalidate. */
const DEFAULT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
const DEFAULT_PREFLIGHT_MAX_AGE = '86400';

// RFC 9110 section 15.4.5: a 304 carries the fields a 200 would, except the
// representation's own metadata, which the client already has.
const NOT_IN_304 = new Set(['content-type', 'content-length', 'content-language', 'content-encoding']);

export type HeaderList = [string, string][];

/** Headers from the rules of each path in turn; an earlier path's value for a name wins. */
export function headersForPaths(rules: HostingRules, paths: readonly string[]): HeaderList {
  const merged = new Map<string, [string, string]>();
  for (const path of paths) {
    for (const [key, entry] of collectHeaders(rules, path)) if (!merged.has(key)) merged.set(key, entry);
  }
  return [...merged.values()];
}

function findHeader(headers: HeaderList, name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

function setHeaders(res: Response, headers: HeaderList, skip: ReadonlySet<string> = new Set()): void {
  for (const [name, value] of headers) if (!skip.has(name.toLowerCase())) res.setHeader(name, value);
}

export interface FileResponse {
  bytes: Buffer;
  /** The strong entity tag of `bytes` (`computeEtag`). */
  etag: string;
  file: string;
  status: number;
  headers: HeaderList;
}

/** A GET or HEAD of a bundle file. */
export function sendFile(req: Request, res: Response, response: FileResponse): void {
  const { bytes, etag, file, status, headers } = response;
  setHeaders(res, headers);
  if (findHeader(headers, 'content-type') === undefined) res.setHeader('Content-Type', contentTypeFor(file));
  if (findHeader(headers, 'cache-control') === undefined)
    res.setHeader('Cache-Control', DEFAULT_CACHE_CONTROL);
  res.setHeader('ETag', etag);
  // RFC 9110 section 13.1.2: If-None-Match applies to GET and HEAD; 304 only replaces a 200.
  if (status === 200 && matchesIfNoneMatch(req.get('if-none-match'), etag)) {
    for (const name of NOT_IN_304) res.removeHeader(name);
    res.status(304).end();
    return;
  }
  res.status(status).setHeader('Content-Length', String(bytes.length));
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** OPTIONS: a CORS preflight answer where the rules open the path to other origins, a plain one elsewhere. */
export function sendOptions(req: Request, res: Response, headers: HeaderList): void {
  setHeaders(res, headers, new Set(['content-type', 'content-length', 'etag']));
  res.setHeader('Allow', ALLOWED_METHODS);
  if (findHeader(headers, 'access-control-allow-origin') !== undefined) {
    // The rules give the CORS headers of the documents; a preflight also needs these
    // three (Fetch standard, CORS protocol), which the rules may leave to the CDN.
    if (findHeader(headers, 'access-control-allow-methods') === undefined)
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    if (findHeader(headers, 'access-control-allow-headers') === undefined) {
      const requested = req.get('access-control-request-headers');
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.append('Vary', 'Access-Control-Request-Headers');
    }
    if (findHeader(headers, 'access-control-max-age') === undefined)
      res.setHeader('Access-Control-Max-Age', DEFAULT_PREFLIGHT_MAX_AGE);
  }
  res.status(204).end();
}

export function sendMethodNotAllowed(res: Response, headers: HeaderList, api: boolean): void {
  res.setHeader('Allow', ALLOWED_METHODS);
  sendError(res, 405, 'method not allowed', api, headers);
}

/** True for URL paths whose errors are JSON: the catalog's base path and `/.well-known/`. */
export function isApiPath(path: string, rules: HostingRules): boolean {
  return (
    path === rules.catalogPath ||
    path.startsWith(`${rules.catalogPath}/`) ||
    path === '/.well-known' ||
    path.startsWith('/.well-known/')
  );
}

/**
 * An error answer. On API paths: JSON with the CORS origin the rules give the catalog,
 * so a browser client can read why it failed; never cached.
 */
export function sendError(
  res: Response,
  status: number,
  message: string,
  api: boolean,
  corsFrom: HeaderList = [],
): void {
  const origin = findHeader(corsFrom, 'access-control-allow-origin');
  if (api && origin !== undefined) res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Cache-Control', 'no-store');
  const body = api ? JSON.stringify({ error: message }) : `${message}\n`;
  res.setHeader('Content-Type', api ? 'application/json' : 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.status(status).end(res.req.method === 'HEAD' ? undefined : body);
}

/** Reads a file the route resolved; undefined when it vanished in between (a rebuild swapped the bundle). */
export async function readServedFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch {
    return undefined;
  }
}
