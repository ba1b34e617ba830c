/**
 * What a product slug may be: the one rule every reader of a slug shares (a store's
 * handle or slug, a native catalog's slug, a content file's name). A slug names a URL
 * path segment (percent-encoded: `/kb/products/<slug>.md`, the store's product page) and
 * a file (`content/products/<slug>.md`, the page's bundle file when pages are not packed).
 *
 * Shopify builds a handle from the title by keeping its word characters (Ruby's
 * `\p{Word}`: letters and their combining marks, digits, the join controls) and joining
 * the rest with hyphens; WordPress's `sanitize_title` keeps the same for WooCommerce. So
 * a real store's handle may carry Arabic harakat (U+064B–U+0652, \p{Mn}), tatweel
 * (U+0640, \p{Lm}), Devanagari vowel signs (\p{Mc}), the zero-width non-joiner of
 * Persian (U+200C) or Arabic-Indic digits: all of them are accepted. Refused, because
 * they cannot be a path segment or a file name safely or are not what a store emits:
 * separators other than single hyphens and underscores (slashes, dots, spaces), control
 * and format characters other than the join controls, punctuation and symbols, and
 * uppercase letters (stores lowercase their handles; a case-insensitive file system
 * would confuse "Cable" and "cable"). A slug is kept exactly as the store wrote it (no
 * Unicode normalisation): it builds the link to the store's own page.
 */

/** A segment starts with a letter or digit; marks and join controls may follow, never lead. */
const SEGMENT = String.raw`[\p{Ll}\p{Lo}\p{Lm}\p{Nl}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{Nl}\p{Nd}\p{M}\u200C\u200D]*`;
const SLUG = new RegExp(`^${SEGMENT}(?:[-_]${SEGMENT})*$`, 'u');

/** Shopify's limit on a handle, in characters. */
export const MAX_SLUG_LENGTH = 255;

/** How the rule reads in a message: "… must be a slug: <this>". */
export const SLUG_RULE_TEXT =
  'lowercase letters of any script with their marks, digits, and single hyphens or underscores between them';

export function isUsableSlug(slug: string): boolean {
  return slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug);
}

/**
 * The form two slugs are compared in (a content file's name with a store's handle): the
 * same text may arrive composed or decomposed (macOS file names, a store's editor), and
 * harakat typed in another order are canonically ordered.
 */
export function slugKey(slug: string): string {
  return slug.normalize('NFC');
}
