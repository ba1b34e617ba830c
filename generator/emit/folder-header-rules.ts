/**
 * The folders served by one header rule each (`<folder>*`) instead of a rule per file. Their
 * file count grows with the catalog (a Markdown page per product, a feed shard per
 * `shard_rows` variants), and a rule per file passes Cloudflare Pages' 100 header rules: at
 * 100,000 products the feed shards alone took the bundle to 103. Each folder holds files of
 * one kind, whose headers are the same, and no other rule matches inside it: both hosts
 * apply every rule that matches a path, so an overlap would send a header twice.
 */
import { OPENAI_SHARD_DIR } from './agent-feeds/openai-feed.js';
import { PRODUCT_MARKDOWN_DIR } from './sitemap-pages.js';

export const HEADER_RULE_FOLDERS: readonly string[] = [PRODUCT_MARKDOWN_DIR, `/${OPENAI_SHARD_DIR}/`];

/** The folder rule's path (`/kb/products/*`) for a URL path inside one of the folders. */
export function folderRulePathOf(urlPath: string): string | undefined {
  const folder = HEADER_RULE_FOLDERS.find((candidate) => urlPath.startsWith(candidate));
  return folder === undefined ? undefined : `${folder}*`;
}

export function isFolderRulePath(rulePath: string): boolean {
  return HEADER_RULE_FOLDERS.some((folder) => rulePath === `${folder}*`);
}
