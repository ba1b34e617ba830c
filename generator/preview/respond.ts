/**
 * Writes the preview's responses: a bundle file with the headers its `_headers` rules
 * give it (ETag, `If-None-Match` → 304, HEAD without a body), 405 for other methods, and
 * errors. A missing path is a plain 404 without CORS, or the bundle's own `404.html`, as
 * the hosts answer it. The errors only preview can give (a catalog that is missing or
 * invalid, a malformed target on an API path, the optional rate limit) are JSON
 * `{"error": "..."}` bodies on API paths, as the spec's part 7 shapes the catalog's 500.
 */
import { readFile } from 'node:fs/promises';
import type { Request, Response } from 'express';
import { matchesIfNoneMatch } from './conditional.js';
import { contentTypeFor } from './content-types.js';
import { collectHeaders, type HostingRules } from './hosting-rules.js';

export const ALLOWED_METHODS = 'GET, HEAD';

/** What Netlify sends when no rule sets Cache-Control: always revalidate. */
const DEFAULT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

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

/**
 * Any method but GET and HEAD, OPTIONS included: 405 with the path's own headers and no
 * body, as Cloudflare's asset server answers (netlify dev answers 200 "Method Not
 * Allowed"). Neither host sends Access-Control-Allow-Methods from static files, so a CORS
 * preflight fails on both, and here too; a plain GET or HEAD needs none.
 */
export function sendMethodNotAllowed(res: Response, headers: HeaderList): void {
  setHeaders(res, headers, new Set(['content-length', 'etag']));
  res.setHeader('Allow', ALLOWED_METHODS);
  res.status(405).end();
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
