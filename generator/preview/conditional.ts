/**
 * Entity tags and `If-None-Match` (RFC 9110 section 8.8.3 and 13.1.2). The tag is strong:
 * a hash of the exact bytes served, so equal tags mean equal bytes. `If-None-Match` is
 * read by `live/if-none-match.ts`, which the live handler's packed pages share.
 */
import { createHash } from 'node:crypto';

export { matchesIfNoneMatch } from '../../live/if-none-match.js';

export function computeEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}
