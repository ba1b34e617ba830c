/**
 * Opaque pagination cursors. A cursor names the offset of the next page and a fingerprint
 * of the query and the bundle it was issued for, so it cannot be replayed against another
 * query (which would skip or repeat results) or survive a redeploy silently. Results come
 * in one stable order per bundle (search-index.ts), so an offset is an exact boundary.
 */
import { shardOf } from './live-files.js';

const FINGERPRINT_SPACE = 0xffffffff;

export function queryFingerprint(query: unknown, generated: string): number {
  return shardOf(`${generated}\u0000${JSON.stringify(query)}`, FINGERPRINT_SPACE);
}

export function encodeCursor(offset: number, fingerprint: number): string {
  return btoa(JSON.stringify({ o: offset, f: fingerprint }))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replaceAll('=', '');
}

/** The offset a cursor points at, or undefined when it is not one of ours for this query. */
export function decodeCursor(cursor: string, fingerprint: number): number | undefined {
  try {
    const value: unknown = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
    if (typeof value !== 'object' || value === null) return undefined;
    const { o, f } = value as { o?: unknown; f?: unknown };
    if (f !== fingerprint || typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) return undefined;
    return o;
  } catch {
    return undefined;
  }
}
