/**
 * Entity tags and `If-None-Match` (RFC 9110 section 8.8.3 and 13.1.2). The tag is strong:
 * a hash of the exact bytes served, so equal tags mean equal bytes. `If-None-Match` uses
 * the weak comparison function, as section 13.1.2 requires ("A recipient MUST use the
 * weak comparison function when comparing entity tags for If-None-Match").
 */
import { createHash } from 'node:crypto';

export function computeEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * True when `If-None-Match` matches `etag`, so a GET or HEAD gets 304. `*` matches any
 * current representation; otherwise the header is a list of entity tags, compared weakly.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  // Entity tags may contain commas inside their quotes, so split on whole tags, not on commas.
  const tags = value.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => opaqueTag(tag) === opaqueTag(etag));
}
