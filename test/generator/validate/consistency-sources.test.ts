import { describe, expect, test } from 'vitest';
import {
  collectMarkdownLinks,
  collectSitemapUrls,
  readFeedItems,
} from '../../../generator/validate/consistency-sources.js';

describe('the consistency readers', () => {
  test('read feed items with escaped and CDATA text the way an XML parser would', () => {
    const feed = [
      '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>',
      '<item><g:id>v&amp;1</g:id><g:link>https://shop.example/p?a=1&amp;b=2</g:link><g:price>1.50 USD</g:price>',
      '<g:sale_price><![CDATA[1.25 USD]]></g:sale_price>',
      '<g:availability>in_stock</g:availability></item>',
      '<item><g:link><![CDATA[https://shop.example/p?c=<3>]]></g:link><g:price> 2.00 USD </g:price>',
      '<g:availability>out_of_stock</g:availability></item>',
      '<item><link>https://shop.example/&#x41;&#66;</link></item>',
      '</channel></rss>',
    ].join('\n');
    const facts = readFeedItems(new Map([['feed.xml', feed]]));
    expect(facts?.items).toEqual([
      {
        id: 'v&1',
        link: 'https://shop.example/p?a=1&b=2',
        price: '1.50 USD',
        salePrice: '1.25 USD',
        availability: 'in_stock',
      },
      {
        id: '',
        link: 'https://shop.example/p?c=<3>',
        price: '2.00 USD',
        salePrice: '',
        availability: 'out_of_stock',
      },
      { id: '', link: 'https://shop.example/AB', price: '', salePrice: '', availability: '' },
    ]);
  });

  test('follow a sitemap index into the child sitemaps of the bundle', () => {
    const files = new Map([
      [
        'sitemap.xml',
        '<sitemapindex><sitemap><loc>https://shop.example/sitemap-1.xml</loc></sitemap>' +
          '<sitemap><loc>https://shop.example/sitemap-2.xml</loc></sitemap></sitemapindex>',
      ],
      [
        'sitemap-1.xml',
        '<urlset><url><loc>https://shop.example/a</loc><lastmod>2026-01-01</lastmod></url></urlset>',
      ],
      ['sitemap-2.xml', '<urlset><url><loc>https://shop.example/b?x=1&amp;y=2</loc></url></urlset>'],
    ]);
    expect(collectSitemapUrls(files)?.urls).toEqual([
      'https://shop.example/a',
      'https://shop.example/b?x=1&y=2',
    ]);
  });

  test('collect the absolute links of Markdown without the punctuation around them', () => {
    const text =
      'See [Green](https://shop.example/products/green), <https://shop.example/kb.md> and https://shop.example/x.';
    expect(collectMarkdownLinks(text)).toEqual([
      'https://shop.example/products/green',
      'https://shop.example/kb.md',
      'https://shop.example/x',
    ]);
  });
});
