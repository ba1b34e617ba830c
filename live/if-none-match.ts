/**
 * `If-None-Match` (RFC 9110 section 13.1.2), for every server of the bundle's files: the
 * preview's static files and the live handler's packed pages answer it alike. "A recipient
 * MUST use the weak comparison function when comparing entity tags for If-None-Match".
 */

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * True when `If-None-Match` matches `etag`, so a GET or HEAD gets 304. `*` matches any
 * current representation; otherwise the header is a list of entity tags, compared weakly.
 */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (header === undefined || header === null) return false;
  const value = header.trim();
  if (value === '*') return true;
  // Entity tags may contain commas inside their quotes, so split on whole tags, not on commas.
  const tags = value.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => opaqueTag(tag) === opaqueTag(etag));
}
