/**
 * The names a product's content file may have, in the form file names are matched in
 * (`slugKey`): the product's slug, as `content/products/<slug>.md`, or its page's name
 * (`productPageName`), which differs only for a slug whose `<slug>.md` is too long for a
 * file name. Such a file cannot be written under the slug (a 255-letter Arabic handle is
 * 510 bytes; a file name takes 255), so the merchant names it as the product's page is
 * named in the bundle, `kb/products/<name>.md`.
 */
import { slugKey } from '../../record/slug.js';
import { productPageName } from '../emit/sitemap-pages.js';

/** The slug's key first, then its page name's when that differs. */
export function contentKeysOf(slug: string): string[] {
  const keys = [slugKey(slug), slugKey(productPageName(slug))];
  return keys[0] === keys[1] ? keys.slice(0, 1) : keys;
}
