import { describe, expect, test } from 'vitest';
import { convertHtmlToText } from '../../../generator/normalise/html-text.js';

describe('convertHtmlToText', () => {
  test('when the HTML has paragraphs then they are separated by one blank line and no tags remain', () => {
    expect(convertHtmlToText('<p>Cold-pressed.</p>\n\n\n<p>Bottled <em>in glass</em>.</p>')).toBe(
      'Cold-pressed.\n\nBottled in glass.',
    );
  });

  test('when the HTML has entities then they are decoded once', () => {
    expect(
      convertHtmlToText('<p>Sweet &amp; tangy &lt;3 &quot;fresh&quot; &#39;pressed&#39; &amp;amp;</p>'),
    ).toBe(`Sweet & tangy <3 "fresh" 'pressed' &amp;`);
  });

  test('when the HTML has links and images then the text keeps the words and the http(s) URL, and drops images', () => {
    const text = convertHtmlToText(
      '<p>See <a href="https://x.example/terms">our terms</a> <img src="a.png" alt="bottle"></p>',
    );
    expect(text).toBe('See our terms (https://x.example/terms)');
  });

  test('when the HTML has headings then their case is kept', () => {
    expect(convertHtmlToText('<h2>Tasting notes</h2><p>Bright.</p>')).toBe('Tasting notes\n\nBright.');
  });

  test('when the HTML has a list then each item is its own line', () => {
    expect(convertHtmlToText('<ul><li>12&nbsp;fl&nbsp;oz</li><li>Glass   bottle</li></ul>')).toBe(
      '* 12 fl oz\n* Glass bottle',
    );
  });

  test('when the HTML has emoji and non-Latin text then they pass through intact', () => {
    expect(convertHtmlToText('<p>Piña 🍍 抹茶 — Ünïcödé</p>')).toBe('Piña 🍍 抹茶 — Ünïcödé');
  });

  test('when the HTML has scripts and styles then their content is dropped', () => {
    expect(convertHtmlToText('<style>p{color:red}</style><script>alert(1)</script><p>Juice</p>')).toBe(
      'Juice',
    );
  });

  test.each([null, undefined, '', '   ', '<p> </p>', '<img src="x.png">'])(
    'when the description is %j then it is null',
    (html) => {
      expect(convertHtmlToText(html)).toBeNull();
    },
  );

  test('when the text is plain then it is returned trimmed', () => {
    expect(convertHtmlToText('  just text  ')).toBe('just text');
  });

  test('when descriptions repeat, past the memo emptying itself, then each answer is still its own', () => {
    const html = (index: number) => `<p>Batch ${index} &amp; more</p><ul><li>Glass</li></ul>`;
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < 1500; index++) {
        expect(convertHtmlToText(html(index))).toBe(`Batch ${index} & more\n\n* Glass`);
      }
    }
    expect(convertHtmlToText('<p> </p>')).toBeNull();
    expect(convertHtmlToText('<p> </p>')).toBeNull();
  });
});
