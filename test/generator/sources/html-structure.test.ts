import { describe, expect, test } from 'vitest';
import { convertDescription, convertHtmlToText } from '../../../generator/normalise/html-text.js';

// A size chart as Shopify themes' rich-text editor writes it: a header row of sizes and
// rows of measurements with ½ fractions (the row that used to read "8 8 ½ 9 9 ½ 10").
const SIZE_CHART = [
  '<p>Heavyweight crew sweatshirt.</p>',
  '<table><tbody>',
  '<tr><td><strong>SIZE</strong></td><td>XS</td><td>S</td><td>M</td><td>L</td><td>XL</td></tr>',
  '<tr><td>SLEEVE LENGTH</td><td>8</td><td>8&nbsp;½</td><td>9</td><td>9 ½</td><td>10</td></tr>',
  '<tr><td>BODY WIDTH</td><td>19</td><td>20 ½</td><td>22</td><td>23 ½</td><td>25</td></tr>',
  '</tbody></table>',
].join('\n');

describe('convertDescription: text that keeps its structure', () => {
  test('when a description has a size chart then the text has one row per line with unambiguous cells', () => {
    expect(convertDescription(SIZE_CHART).text).toBe(
      [
        'Heavyweight crew sweatshirt.',
        '',
        'SIZE | XS | S | M | L | XL',
        'SLEEVE LENGTH | 8 | 8 ½ | 9 | 9 ½ | 10',
        'BODY WIDTH | 19 | 20 ½ | 22 | 23 ½ | 25',
      ].join('\n'),
    );
  });

  test('when a description has a size chart then the Markdown is a table whose first row is the header', () => {
    expect(convertDescription(SIZE_CHART).markdown).toBe(
      [
        'Heavyweight crew sweatshirt.',
        '',
        '| SIZE | XS | S | M | L | XL |',
        '| --- | --- | --- | --- | --- | --- |',
        '| SLEEVE LENGTH | 8 | 8 ½ | 9 | 9 ½ | 10 |',
        '| BODY WIDTH | 19 | 20 ½ | 22 | 23 ½ | 25 |',
      ].join('\n'),
    );
  });

  test('when a cell holds a pipe or spans columns then no row gains or loses a column', () => {
    const html =
      '<table><tr><th>Part</th><th>A</th><th>B</th></tr><tr><td>In | out</td><td colspan="2">both</td></tr></table>';
    expect(convertDescription(html).text).toBe('Part | A | B\nIn / out | both | both');
    expect(convertDescription(html).markdown).toBe(
      '| Part | A | B |\n| --- | --- | --- |\n| In \\| out | both | both |',
    );
  });

  test('when a description has a list then each item is its own line, and a Markdown list item', () => {
    const html = '<p>Features:</p><ul><li>100% cotton</li><li>Made in <em>Portugal</em></li></ul>';
    expect(convertDescription(html)).toEqual({
      text: 'Features:\n\n* 100% cotton\n* Made in Portugal',
      markdown: 'Features:\n\n- 100% cotton\n- Made in Portugal',
    });
  });

  test('when a link has text then the text keeps its URL, in brackets in text and as a link in Markdown', () => {
    const html = '<p>Download the report <a href="https://reports.example/2026.pdf">here</a>.</p>';
    expect(convertDescription(html)).toEqual({
      text: 'Download the report here (https://reports.example/2026.pdf).',
      markdown: 'Download the report [here](https://reports.example/2026.pdf).',
    });
  });

  test('when a link is not an absolute http(s) URL then only its text is kept', () => {
    const html = '<p><a href="javascript:alert(1)">Click</a> or see <a href="/pages/faq">the FAQ</a>.</p>';
    expect(convertDescription(html)).toEqual({
      text: 'Click or see the FAQ.',
      markdown: 'Click or see the FAQ.',
    });
  });

  test('when the store text holds Markdown characters then the Markdown escapes them', () => {
    const html = '<ul><li>Wash [cold] *gently* #1 &lt;b&gt;not bold&lt;/b&gt; `x` a_b</li></ul>';
    expect(convertDescription(html).markdown).toBe(
      '- Wash \\[cold\\] \\*gently\\* \\#1 \\<b\\>not bold\\</b\\> \\`x\\` a\\_b',
    );
  });

  test('when a body is plain text with line breaks then they are kept', () => {
    expect(convertHtmlToText('Cotton 100%\nMachine wash\n\nMade in Portugal &amp; Spain')).toBe(
      'Cotton 100%\nMachine wash\n\nMade in Portugal & Spain',
    );
  });

  test('when the HTML was encoded twice then it is decoded once into text, never into tags', () => {
    expect(
      convertHtmlToText('&lt;p&gt;Fresh &amp;amp; cold&lt;/p&gt;&lt;p&gt;Two&lt;br&gt;lines&lt;/p&gt;'),
    ).toBe('Fresh & cold\n\nTwo\nlines');
  });

  test('when a description has no table, list or link then there is no Markdown beside the text', () => {
    expect(convertDescription('<p>Just <strong>words</strong>.</p>')).toEqual({ text: 'Just words.' });
  });
});
