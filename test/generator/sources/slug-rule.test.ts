/**
 * The one slug rule (record/slug.ts) read against what stores really emit: Shopify keeps a
 * title's word characters in its handle (letters with their combining marks, digits, the
 * join controls) and WordPress does the same for WooCommerce slugs. What cannot be a URL
 * path segment or a file name safely, or is not a store's handle, stays refused.
 */
import { describe, expect, it } from 'vitest';
import { mapShopifyProduct } from '../../../generator/normalise/shopify.js';
import { isUsableSlug, slugKey } from '../../../record/slug.js';

describe('the slug rule', () => {
  it.each([
    ['a Latin handle', 'green-glow'],
    ['Latin with an accent and CJK', 'piña-抹茶'],
    ['Arabic letters', 'كابل-شحن-سريع'],
    ['Arabic harakat (fatha, kasra: \\p{Mn})', 'كَابِل-hdmi'],
    ['shadda before fatha, as typed (not NFC order)', 'مُقَوَّى'.replace('\u064e\u0651', '\u0651\u064e')],
    ['tatweel (U+0640, \\p{Lm})', 'كابـــل-شبكة'],
    ['a Persian zero-width non-joiner (U+200C)', 'کابل\u200cبرق'],
    ['Devanagari vowel signs (\\p{Mc}) and anusvara', 'हिंदी-किताब'],
    ['Thai with its marks', 'สายชาร์จ'],
    ['Arabic-Indic and extended Arabic-Indic digits', 'كابل-٣-متر-۳'],
    ['an underscore between words', 'cable_usb'],
  ])('when a handle has %s then it is usable', (_case, slug) => {
    expect(isUsableSlug(slug)).toBe(true);
  });

  it.each([
    ['nothing', ''],
    ['a slash', 'green/glow'],
    ['a backslash', 'green\\glow'],
    ['a dot', 'green.glow'],
    ['dots only', '..'],
    ['a space', 'green glow'],
    ['uppercase ASCII', 'Green-Glow'],
    ['uppercase beyond ASCII', 'éclair-Éclair'],
    ['a doubled separator', 'green--glow'],
    ['a leading separator', '-green'],
    ['a trailing separator', 'green-'],
    ['a control character', 'green\u0000glow'],
    ['a left-to-right mark (a format character, not a join control)', 'كابل\u200eusb'],
    ['a word that starts with a combining mark', 'كابل-\u0651\u064e'],
    ['a word that starts with a zero-width non-joiner', '\u200cكابل'],
    ['a percent sign (still encoded)', '%d9%83'],
    ['a symbol', 'cable-🔌'],
    ['more than 255 characters', 'a'.repeat(256)],
  ])('when a handle has %s then it is refused', (_case, slug) => {
    expect(isUsableSlug(slug)).toBe(false);
  });

  it('when two slugs differ only in the order of their marks then their compared forms are equal, the slugs are not', () => {
    const typed = 'مُقَوَّى'.replace('\u064e\u0651', '\u0651\u064e');
    expect(typed).not.toBe(typed.normalize('NFC'));
    expect(slugKey(typed)).toBe(slugKey(typed.normalize('NFD')));
  });

  it('when a Shopify handle is percent-encoded then the product is kept under the decoded handle', () => {
    const outcome = mapShopifyProduct(
      {
        id: 5,
        title: 'كابل USB',
        handle: '%d9%83%d8%a7%d8%a8%d9%84-usb',
        variants: [{ id: 51, price: '99.00', compare_at_price: '149.00', available: true }],
      },
      { siteUrl: 'https://cairo-cables.example', currency: 'EGP', comingSoonTag: 'coming-soon' },
    );
    expect(outcome.ok && outcome.product.record.slug).toBe('كابل-usb');
    expect(outcome.ok && outcome.product.record.variants[0]?.compare_at_price).toBe('149.00');
  });

  it('when a handle is refused then the reason names it and says what a handle is', () => {
    const outcome = mapShopifyProduct(
      { id: 6, title: 'Bad', handle: 'green/glow', variants: [{ id: 61, price: '1.00' }] },
      { siteUrl: 'https://cairo-cables.example', currency: 'EGP', comingSoonTag: 'coming-soon' },
    );
    expect(outcome.ok ? '' : outcome.rejected.reason).toMatch(
      /unusable handle "green\/glow" \(expected lowercase letters of any script/,
    );
  });
});
