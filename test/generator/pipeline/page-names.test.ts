/**
 * A product page's name (`productPageName`, emit/sitemap-pages.ts): the slug whenever
 * `<slug>.md` fits in a 255-byte file name, else a shorter name that is stable, its own,
 * never another product's slug, and within the limit (merge.test.ts and content.test.ts
 * read a content file named after such a page).
 */
import { describe, expect, it } from 'vitest';
import {
  isShortenedPageName,
  productMarkdownFile,
  productMarkdownPath,
  productPageName,
} from '../../../generator/emit/sitemap-pages.js';
import { isUsableSlug } from '../../../record/slug.js';

const LONG = 'ك'.repeat(255);

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

describe('a product page name', () => {
  it.each([
    ['252 ASCII letters', 'a'.repeat(252)],
    ['126 Arabic letters (252 bytes)', 'ب'.repeat(126)],
    ['a short Arabic handle with harakat', 'كَابِل-hdmi'],
  ])('when <slug>.md is at most 255 bytes (%s) then the name is the slug', (_case, slug) => {
    expect(productPageName(slug)).toBe(slug);
    expect(productMarkdownFile(slug)).toBe(`kb/products/${slug}.md`);
    expect(productMarkdownPath(slug)).toBe(`/kb/products/${encodeURIComponent(slug)}.md`);
  });

  it.each([
    ['253 ASCII letters', 'a'.repeat(253)],
    ['127 Arabic letters (254 bytes)', 'ب'.repeat(127)],
    ['255 Arabic letters', LONG],
    ['Arabic letters each with a fatha', 'كَ'.repeat(125)],
    ['Devanagari with vowel signs', 'हिं'.repeat(85)],
  ])(
    'when <slug>.md is over 255 bytes (%s) then the name fits, begins with whole letters of the slug and is no slug',
    (_case, slug) => {
      const name = productPageName(slug);
      expect(bytes(`${name}.md`)).toBeLessThanOrEqual(255);
      expect(bytes(`${name}.md`)).toBeGreaterThan(230);
      const prefix = name.slice(0, name.lastIndexOf('--'));
      expect(slug.startsWith(prefix)).toBe(true);
      // Cut between whole characters: the next code point of the slug is not a mark.
      expect(slug.slice(prefix.length)).toMatch(/^[^\p{M}]/u);
      expect(isUsableSlug(name)).toBe(false);
      expect(isShortenedPageName(name)).toBe(true);
      // A page name names itself: what the packed pages store is read back to the same file.
      expect(productPageName(name)).toBe(name);
    },
  );

  it('when two long slugs share their first 250 letters then their pages have two names', () => {
    const other = `${LONG.slice(0, 250)}ببببب`;
    expect(productPageName(LONG)).not.toBe(productPageName(other));
  });

  it('when the rule is applied then the name is the one published before: 117 letters (234 bytes), "--", 16 hex digits of SHA-256 of the slug', () => {
    // A published URL must not move from one release to the next; worked out with Python's hashlib.
    expect(productPageName(LONG)).toBe(`${'ك'.repeat(117)}--0712004ea798db0a`);
  });

  it('when a name is a slug or lacks the hash then it is not a shortened page name', () => {
    expect(isShortenedPageName('green-glow')).toBe(false);
    expect(isShortenedPageName('green--glow')).toBe(false);
    expect(isShortenedPageName('Green--0123456789abcdef')).toBe(false);
  });
});
