/**
 * Which merchant content files the build used, decided after the merge. A product file
 * whose product is gone from the store is routine (a merchant unpublishes a product for a
 * day): the build publishes without it, names the file as unused in its warnings and
 * summary, and keeps the file for when the product comes back. Only `--strict` makes that
 * fatal. What is never routine is a content folder that is not this store's at all: a
 * configured `content_dir` that does not exist (a typo would silently drop every
 * product's ingredients and nutrition), or a folder where not one product file matches a
 * product of the store (the sample's content read against another store). Both stop the
 * build (CONTENT_INVALID, exit 2) with the keys to fix. "Not one file matches" alone cannot
 * tell those apart from a store that unpublished the only products it has content for, so
 * the refusal also needs the last good bundle: when that bundle held a product named by a
 * content file, the folder is this store's and the build publishes with a warning.
 */
import { stat } from 'node:fs/promises';
import { slugKey } from '../../record/slug.js';
import { CatalogError } from '../errors.js';
import type { ProductContent } from './load-content.js';

/** A content file no upstream product used in this build. */
export interface UnusedContent {
  file: string;
  slug: string;
}

export interface ContentUseInput {
  /** Every product content file read. */
  content: readonly ProductContent[];
  /** Content files whose slug no merged product has (`mergeProducts().unmatched`). */
  unmatched: readonly ProductContent[];
  /** Upstream products the store sent but that were left out; their content is not stale. */
  rejected: readonly { slug?: string }[];
  /** Products the store sent (merged ones plus the ones left out). */
  upstreamCount: number;
  /** `content_dir` as written in the config, for messages. */
  contentDir: string;
  strict: boolean;
  /** Product slugs of the last good bundle in --out; undefined when there is none. */
  previousSlugs?: readonly string[] | undefined;
}

const CONFIG_ADVICE =
  'write a config for this store, with its own content_dir (or none), and pass it with --config';

/** Refuses a `content_dir` that the config names but that does not exist. */
export async function assertContentDirExists(path: string, contentDir: string): Promise<void> {
  const found = await stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (found) return;
  throw new CatalogError(
    'CONTENT_INVALID',
    `content_dir "${contentDir}" is not a folder; fix content_dir in the config, or remove it when the store has no content files (${CONFIG_ADVICE})`,
    { field: 'content_dir', content_dir: contentDir },
  );
}

/**
 * Returns the unused content files (sorted by file name), or throws CONTENT_INVALID when
 * no file matches the store at all, or when any is unused under --strict.
 */
export function checkContentUse(input: ContentUseInput): UnusedContent[] {
  const rejectedSlugs = new Set(
    input.rejected.flatMap((item) => (item.slug === undefined ? [] : [slugKey(item.slug)])),
  );
  const unused = input.unmatched
    .filter((item) => !rejectedSlugs.has(item.slug))
    .map((item) => ({ file: item.file, slug: item.slug }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const files = unused.map((item) => item.file);
  if (isForeignContent(input, unused)) {
    throw new CatalogError(
      'CONTENT_INVALID',
      `none of the ${input.content.length} product files in content_dir "${input.contentDir}" matches a product of this store (the files are named after product handles); ${CONFIG_ADVICE}`,
      { field: 'content_dir', content_dir: input.contentDir, files },
    );
  }
  if (input.strict && unused.length > 0) {
    throw new CatalogError(
      'CONTENT_INVALID',
      `${unused.length} content file(s) match no upstream product under --strict: ${files.join(', ')}; delete each file once its product is gone from the store for good`,
      { field: 'slug', file: files[0], files },
    );
  }
  return unused;
}

/**
 * True when not one content file matches this store and nothing says the folder was ever
 * this store's: no previous bundle, or none of its products is named by a content file.
 */
function isForeignContent(input: ContentUseInput, unused: readonly UnusedContent[]): boolean {
  // An empty upstream is the shrink guard's business (exit 1), checked before this.
  if (input.upstreamCount === 0 || input.content.length === 0) return false;
  if (unused.length !== input.content.length) return false;
  const previous = new Set((input.previousSlugs ?? []).map(slugKey));
  return !unused.some((item) => previous.has(item.slug));
}

/** The warning line for one unused file. */
export function describeUnusedContent(item: UnusedContent): string {
  return `content file ${item.file} is unused: no upstream product has the slug "${item.slug}" (kept for when the product returns; delete it once the product is gone for good)`;
}
