/**
 * A feed's text walked a piece at a time (`FeedTextWalk` over `XmlCutter`) reads as the
 * whole text parsed at once: markup cut between pieces, a CDATA section or a comment that
 * holds `</item>`, a quoted `>` in an attribute, and the entities a DOCTYPE declares; and a
 * fault is said at the line, with the words, that a validation of the whole text gives.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { FeedTextWalk } from '../../../generator/emit/feed-reading.js';

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [<!ENTITY price "12.00 USD"> <!ENTITY note "a ] in a value">]>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
  <channel>
    <title>Juice</title>
    <!-- <item><g:id>not an item</g:id></item> -->
    <link>https://shop.example</link>
    <description>Cold-pressed</description>
    <item data-note="a > b"><g:id>1</g:id><g:title><![CDATA[Juice </item><item> & more]]></g:title>
      <g:price>&price;</g:price></item>
    <item><g:id>2</g:id><g:title>Tom &amp; Jerry</g:title><extra><item><g:id>nested</g:id></item></extra></item>
    <item/>
    <item>text only</item>
    <item><g:id>3</g:id><g:description>&note;</g:description></item>
  </channel>
</rss>
`;

/** The text in pieces of `size` characters. */
function piecesOf(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, at) =>
    text.slice(at * size, (at + 1) * size),
  );
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  isArray: (name: string) => name === 'item',
});

function walk(text: string, size: number) {
  const reading = new FeedTextWalk(piecesOf(text, size));
  const items = [...reading.items()];
  return { items, finish: reading.finish() };
}

describe('a feed walked a piece at a time', () => {
  it.each([1, 2, 7, 64, 100_000])(
    'when cut into pieces of %i characters then it reads as its whole text',
    (size) => {
      const whole = parser.parse(FEED) as { rss: { channel: { item: unknown[]; title: string } } };
      const elements = whole.rss.channel.item.filter((item) => typeof item === 'object' && item !== null);
      const { items, finish } = walk(FEED, size);
      expect(items).toEqual(elements);
      expect(items).toHaveLength(3);
      expect(items[0]).toMatchObject({ 'g:title': 'Juice </item><item> & more', 'g:price': '12.00 USD' });
      expect(finish).toEqual({
        ok: true,
        frame: expect.objectContaining({
          channel: expect.objectContaining({ title: 'Juice', link: 'https://shop.example' }),
        }),
      });
    },
  );

  it.each([
    ['an item', '<g:id>2</g:id>', '<g:id>2</g:idx>'],
    ['the frame after the items', '</channel>', '</chanel>'],
    ['the frame before the items', '<link>https://shop.example</link>', '<link>https://shop.example</lnk>'],
    ['an item left open', '<item/>', '<item>'],
  ])('when %s is not well-formed then the line and words are those of the whole text', (_, from, to) => {
    const broken = FEED.replace(from, to);
    const validation = XMLValidator.validate(broken);
    if (validation === true) throw new Error('the edit left the feed well-formed');
    for (const size of [3, 4096]) {
      expect(walk(broken, size).finish).toEqual({
        ok: false,
        fault: { kind: 'malformed', line: validation.err.line, message: validation.err.msg },
      });
    }
  });

  it('when an item holds a character XML 1.0 does not allow then it is said', () => {
    expect(walk(FEED.replace('Tom', 'To\u0001m'), 5).finish).toEqual({
      ok: false,
      fault: { kind: 'illegal-chars' },
    });
  });
});
