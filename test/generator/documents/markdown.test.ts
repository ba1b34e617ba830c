import { describe, expect, it } from 'vitest';
import {
  escapeMarkdownInline,
  escapeMarkdownParagraphs,
  formatMarkdownLink,
  shiftHeadings,
} from '../../../generator/emit/markdown-text.js';

/** What a reader sees once CommonMark backslash escapes are resolved. */
function resolveEscapes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('escapeMarkdownInline', () => {
  it('turns line breaks into spaces so a name stays on its line', () => {
    expect(escapeMarkdownInline('Green\nGlow\r\n\u2028Juice')).toBe('Green Glow Juice');
  });

  it('escapes a leading # so the text cannot become a heading', () => {
    const out = escapeMarkdownInline('# Heading');
    expect(out.startsWith('#')).toBe(false);
    expect(resolveEscapes(out)).toBe('# Heading');
  });

  it('escapes brackets so link text cannot close early or open a link', () => {
    const out = escapeMarkdownInline('[click](https://evil.example)');
    expect(out).not.toMatch(/(^|[^\\])\[/);
    expect(out).not.toMatch(/(^|[^\\])\]/);
    expect(resolveEscapes(out)).toBe('[click](https://evil.example)');
  });

  it('escapes angle brackets so HTML tags and autolinks stay text', () => {
    const out = escapeMarkdownInline('<script>alert(1)</script> <https://x.example>');
    expect(out).not.toMatch(/(^|[^\\])</);
    expect(resolveEscapes(out)).toBe('<script>alert(1)</script> <https://x.example>');
  });

  it('escapes list markers, thematic breaks and numbered items only at the start', () => {
    expect(escapeMarkdownInline('- item')).toBe('\\- item');
    expect(escapeMarkdownInline('---')).toBe('\\---');
    expect(escapeMarkdownInline('1. first')).toBe('1\\. first');
    expect(escapeMarkdownInline('42.00 USD')).toBe('42.00 USD');
    expect(escapeMarkdownInline('-5% sugar')).toBe('-5% sugar');
  });

  it('escapes a trailing backslash so it cannot swallow the next character', () => {
    expect(resolveEscapes(escapeMarkdownInline('a\\'))).toBe('a\\');
    expect(escapeMarkdownInline('a\\')).toBe('a\\\\');
  });

  it('drops control characters', () => {
    expect(escapeMarkdownInline('a\u0000b\u0007c')).toBe('abc');
  });

  it('when the text is plain ASCII words then only a leading marker or odd spacing changes it', () => {
    const cases: [string, string][] = [
      ['12 fl oz', '12 fl oz'],
      ['3-pack, 6-pack & more: 50% off!', '3-pack, 6-pack & more: 50% off!'],
      ['Pack | 6 (glass) {new} ~ x_y = z', 'Pack | 6 (glass) {new} ~ x_y = z'],
      ['1) first', '1\\) first'],
      ['1. first', '1\\. first'],
      ['+ plus', '\\+ plus'],
      ['* star', '\\* star'],
      ['***', '\\***'],
      ['===', '\\==='],
      ['~~~ fence', '\\~~~ fence'],
      ['#hash', '\\#hash'],
      ['Juice #', 'Juice \\#'],
      ['a  b', 'a b'],
      [' a ', 'a'],
      ['a\tb', 'a b'],
      ['a`b', 'a\\`b'],
      ['Piña 抹茶', 'Piña 抹茶'],
    ];
    for (const [text, expected] of cases) expect(escapeMarkdownInline(text)).toBe(expected);
  });
});

describe('escapeMarkdownParagraphs', () => {
  it('keeps paragraphs apart and flattens each one', () => {
    expect(escapeMarkdownParagraphs('one\ntwo\n\n# three')).toBe('one two\n\n\\# three');
  });
});

describe('formatMarkdownLink', () => {
  it('escapes parentheses in the destination and brackets in the text', () => {
    expect(formatMarkdownLink('A [b]', 'https://x.example/a_(b)')).toBe(
      '[A \\[b\\]](https://x.example/a_\\(b\\))',
    );
  });
});

describe('shiftHeadings', () => {
  it('demotes ATX and setext headings, capped at level 6', () => {
    const out = shiftHeadings('# One\n\nTwo\n===\n\nThree\n---\n\n##### Five', 3);
    expect(out.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '#### One',
      '#### Two',
      '##### Three',
      '###### Five',
    ]);
  });

  it('leaves fenced code alone', () => {
    const text = '```sh\n# not a heading\n```\n# heading';
    expect(shiftHeadings(text, 2)).toBe('```sh\n# not a heading\n```\n### heading');
  });

  it('keeps a thematic break after a blank line', () => {
    expect(shiftHeadings('text\n\n---\n', 2)).toBe('text\n\n---\n');
  });
});

describe('escapeMarkdownInline and #', () => {
  it('leaves a # inside a line alone but escapes a trailing closing sequence', () => {
    expect(escapeMarkdownInline('see https://x.example/#usage')).toBe('see https://x.example/#usage');
    expect(escapeMarkdownInline('Juice No. 1 #')).toBe('Juice No. 1 \\#');
  });
});
