/**
 * Turns the raw request target into a safe URL path, and a URL path into a real file
 * inside the bundle. The raw target is checked before and after percent-decoding, so a
 * client cannot smuggle `..`, an encoded slash or backslash, or a NUL byte past the
 * check; the file is then resolved through symlinks (realpath) and must still lie inside
 * the bundle's real directory. Anything malformed is the client's mistake (400), anything
 * outside or hidden is simply not there (404): never a 5xx.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ROUTES_FILE, WORKER_FILE } from '../../live/shells/host-files.js';

export type ParsedPath = { ok: true; path: string } | { ok: false; status: 400 | 404 };

/** Files the CDN reads as configuration or code and never serves (the live handler's are in `live/shells/host-files.ts`). */
const HOSTING_FILES = new Set(['_headers', '_redirects', WORKER_FILE, ROUTES_FILE]);

// Encoded `/`, `\` and control characters would let a decoded path mean something else
// than the path the rules and the containment check look at.
const FORBIDDEN_ENCODED = /%(2f|5c|0[0-9a-f]|1[0-9a-f]|7f)/i;

/** Validates and decodes the path part of a request target (`/a/b?c` → `/a/b`). */
export function parseRequestPath(rawTarget: string): ParsedPath {
  // RFC 9112 section 3.2.2: a server MUST accept the absolute form (sent through proxies).
  const originForm = rawTarget.replace(/^https?:\/\/[^/?#]*/i, '');
  const rawPath = originForm.split('?', 1)[0] ?? '';
  if (!rawPath.startsWith('/') || FORBIDDEN_ENCODED.test(rawPath)) return { ok: false, status: 400 };
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, status: 400 };
  }
  // RFC 3986 section 5.2.4 dot segments are resolved by clients; one that reaches the
  // server is an attempt to climb out of the document root.
  const segments = path.split('/').slice(1);
  if (/[\\\0]/.test(path) || segments.some((segment) => segment === '.' || segment === '..')) {
    return { ok: false, status: 400 };
  }
  return { ok: true, path };
}

/** True for paths the bundle must never expose: the rules files and dotfiles other than `.well-known/`. */
export function isHiddenPath(path: string): boolean {
  const segments = path.split('/').slice(1);
  if (segments.length === 1 && HOSTING_FILES.has(segments[0] ?? '')) return true;
  if (segments.slice(0, -1).some((segment) => segment === '')) return true;
  return segments.some(
    (segment, index) => segment.startsWith('.') && !(index === 0 && segment === '.well-known'),
  );
}

export interface ResolvedFile {
  file: string;
  stats: Stats;
}

/**
 * The real path of `urlPath` inside `realRoot` when it is a regular file or directory
 * there, following symlinks only as long as they stay inside; undefined otherwise.
 */
export async function resolveInside(realRoot: string, urlPath: string): Promise<ResolvedFile | undefined> {
  let file: string;
  try {
    file = await realpath(join(realRoot, urlPath));
  } catch {
    return undefined;
  }
  if (file !== realRoot && !file.startsWith(realRoot + sep)) return undefined;
  try {
    const stats = await stat(file);
    return stats.isFile() || stats.isDirectory() ? { file, stats } : undefined;
  } catch {
    return undefined;
  }
}
