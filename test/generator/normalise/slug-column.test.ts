/**
 * The slug column (slug-column.ts): each number's slug as UTF-8 in one buffer, replaced and
 * dropped by number, and ordered exactly as the merge orders strings (UTF-16 code units),
 * also where UTF-8's own order differs (a character past U+FFFF against one just below it).
 */
import { describe, expect, it } from 'vitest';
import { compareText } from '../../../generator/merge.js';
import { SlugColumn } from '../../../generator/normalise/slug-column.js';

function columnOf(slugs: readonly string[]): SlugColumn {
  const column = new SlugColumn();
  for (const [index, slug] of slugs.entries()) column.set(index, slug);
  return column;
}

describe('the slug column', () => {
  it('when slugs are set, replaced and dropped then each number reads its latest slug or none', () => {
    const column = columnOf(['peach', 'apple', 'كابل-شحن']);
    column.set(1, 'apple-green');
    column.drop(0);
    expect(column.slugAt(0)).toBeUndefined();
    expect(column.has(0)).toBe(false);
    expect(column.slugAt(1)).toBe('apple-green');
    expect(column.slugAt(2)).toBe('كابل-شحن');
    expect(column.holds(1, 'apple')).toBe(false);
    expect(column.holds(1, 'apple-green')).toBe(true);
    expect([column.length, column.kept]).toEqual([3, 2]);
    column.seal();
    expect(column.slugAt(2)).toBe('كابل-شحن');
  });

  it('when numbers are sorted by it then the order is the merge order of the strings', () => {
    // U+FF5E (fullwidth tilde) sorts after U+1F34B (lemon) in UTF-16, before it in UTF-8;
    // the lone surrogate cannot be written as UTF-8 at all.
    const slugs = ['zeta', 'citron-～', 'citron-🍋', 'citron', 'Citron', 'é-drink', 'e-drink', 'x\uD800'];
    const column = columnOf(slugs);
    const byColumn = slugs.map((_, index) => index).sort((a, b) => column.compare(a, b));
    const byText = slugs.map((_, index) => index).sort((a, b) => compareText(slugs[a] ?? '', slugs[b] ?? ''));
    expect(byColumn).toEqual(byText);
    expect(column.slugAt(7)).toBe('x\uD800');
  });

  it('when it grows past its first buffers then every slug is still read back', () => {
    const slugs = Array.from({ length: 3_000 }, (_, index) => `juice-${index}-${'x'.repeat(index % 40)}`);
    const column = columnOf(slugs);
    column.seal();
    expect(slugs.every((slug, index) => column.slugAt(index) === slug)).toBe(true);
  });

  it('when set at a number past the next then it refuses', () => {
    expect(() => columnOf(['a']).set(2, 'b')).toThrow(TypeError);
  });
});
