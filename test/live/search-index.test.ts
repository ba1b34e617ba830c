/**
 * The live search index on its own: the same words for a product and a query (case,
 * diacritics, plurals), every word first (spelled as given, then as a prefix or with a
 * typo, then the best partial matches), the filters over each variant's price and
 * availability and the product's category, ties in catalog order, and an order that
 * survives the index's trip through JSON, so an offset is a page boundary.
 */
import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../live/search-index.js';
import { stem, tokenise } from '../../live/search-tokens.js';
import { buildProductRecord } from '../../record/build-record.js';
import type { ProductRecord } from '../../record/product-record.js';
import { liveFetch } from './live-bundle.js';
import { idsOf, openIndexOf } from './partitioned-index.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';
import { makeVariedRecords } from './varied-catalog.js';

interface Made {
  name: string;
  description?: string;
  category?: string;
  tags?: string[];
  /** [price, in stock] per variant. */
  variants?: [string, boolean][];
}

function records(made: readonly Made[]): ProductRecord[] {
  return made.map((product, index) => {
    const url = `https://juice.example/products/p${index}`;
    const variants = product.variants ?? [['5.00', true]];
    return buildProductRecord({
      name: product.name,
      slug: `p${index}`,
      url,
      description: product.description ?? null,
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      currency: 'USD',
      purchase_url: url,
      id: `p${index}`,
      category: product.category ?? 'Juice',
      tags: product.tags ?? [],
      images: [],
      options: variants.length > 1 ? [{ name: 'Size', values: variants.map((_, v) => `size ${v}`) }] : [],
      variants: variants.map(([price, inStock], v) => ({
        id: `p${index}-${v}`,
        title: variants.length > 1 ? `size ${v}` : 'Default',
        options: variants.length > 1 ? [{ name: 'Size', value: `size ${v}` }] : [],
        price,
        availability: inStock ? 'in_stock' : 'out_of_stock',
        requires_shipping: true,
      })),
    });
  });
}

/** Ids of the matches, best first, from an index cut into many partition files like the bundle's. */
function searcher(made: readonly Made[]): (query: SearchQuery) => Promise<string[]> {
  const opened = openIndexOf(records(made));
  return async (query) => idsOf((await opened).index, query);
}

describe('words', () => {
  it('folds case, diacritics and compatibility forms, splits on anything but letters and digits, and stems plurals', () => {
    expect(tokenise('Açaí BOWLS, cherries & boxes—ﬁzz/glass 12oz')).toEqual([
      'acai',
      'bowl',
      'cherry',
      'box',
      'fizz',
      'glass',
      '12oz',
    ]);
  });

  it('reads ASCII text as the Unicode folding reads it', () => {
    const unicodeTokens = (text: string) =>
      text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word !== '')
        .map(stem);
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    const texts = [
      ascii,
      `${ascii} Lemons AND cherries_boxes`,
      ...makeVariedRecords(300).flatMap((record) => [record.name, record.description ?? '', record.id]),
    ];
    for (const text of texts) expect(tokenise(text)).toEqual(unicodeTokens(text));
  });

  it('matches a product however the query spells the same word', async () => {
    const search = searcher([{ name: 'Açaí bowl' }, { name: 'Mango bowl' }]);
    expect(await search({ text: 'ACAI BOWLS' })).toEqual(['p0']);
  });
});

describe('every word first', () => {
  const search = searcher([
    { name: 'Ginger shot' },
    { name: 'Lemon ginger tonic' },
    { name: 'Lemon water' },
    { name: 'Gingerbread latte' },
  ]);

  it('keeps only the products that carry every word', async () => {
    expect(await search({ text: 'ginger lemon' })).toEqual(['p1']);
  });

  it('takes a word as spelled before reading it as a prefix', async () => {
    expect((await search({ text: 'ginger' })).sort()).toEqual(['p0', 'p1']);
    // "gingerb" is a prefix of one word and a typo of another: the longer match ranks first.
    expect((await search({ text: 'gingerb' }))[0]).toBe('p3');
  });

  it('reads words as prefixes or with one typo when nothing matches them as spelled', async () => {
    expect(await search({ text: 'lem tonic' })).toEqual(['p1']);
    expect(await search({ text: 'lemmon wate' })).toEqual(['p2']);
  });

  it('falls back to the best partial matches when no product carries every word', async () => {
    const found = await search({ text: 'lemon ginger under five dollars' });
    expect(found[0]).toBe('p1');
    expect(found.slice(1).sort()).toEqual(['p0', 'p2', 'p3']);
  });

  it('finds nothing for words no product carries', async () => {
    expect(await search({ text: 'zzz qqq' })).toEqual([]);
  });
});

describe('ranking', () => {
  it('ranks a word in the name above the same word in the description', async () => {
    const search = searcher([
      { name: 'Green juice', description: 'With kale from the farm.' },
      { name: 'Kale juice', description: 'Green and fresh.' },
    ]);
    expect(await search({ text: 'kale' })).toEqual(['p1', 'p0']);
  });

  it('breaks ties by catalog order', async () => {
    // Forty products with the same name: the same score each, so catalog order alone decides.
    const ids = await searcher(Array.from({ length: 40 }, () => ({ name: 'Beet tonic' })))({ text: 'beet' });
    expect(ids).toEqual(Array.from({ length: 40 }, (_, index) => `p${index}`));
  });
});

describe('filters', () => {
  const search = searcher([
    {
      name: 'Cheap but sold out small, dear large',
      variants: [
        ['3.00', false],
        ['9.00', true],
      ],
    },
    { name: 'Cheap and in stock', variants: [['3.50', true]], category: 'Shots' },
    { name: 'Dear', variants: [['12.00', true]] },
  ]);

  it('keeps a product when one variant is within the price range', async () => {
    expect(await search({ price: { max: 400 } })).toEqual(['p0', 'p1']);
    expect(await search({ price: { min: 500, max: 1000 } })).toEqual(['p0']);
  });

  it('asks availability and price of the same variant', async () => {
    expect(await search({ price: { max: 400 }, available: true })).toEqual(['p1']);
    expect(await search({ available: true })).toEqual(['p0', 'p1', 'p2']);
  });

  it('matches any of the categories, case-insensitively, with the text', async () => {
    expect(await search({ categories: [' shots '] })).toEqual(['p1']);
    expect((await search({ text: 'cheap', categories: ['juice', 'SHOTS'] })).sort()).toEqual(['p0', 'p1']);
    expect(await search({ text: 'cheap', categories: ['juice'] })).toEqual(['p0']);
  });
});

describe('pages', () => {
  it('pages through partial matches with many ties without gaps or repeats', async () => {
    const bundle = await syntheticLiveBundle(300);
    const call = liveFetch(bundle);
    const page = async (cursor?: string) => {
      const response = await call(`${bundle.baseUrl}/ucp/catalog/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'ginger beet',
          pagination: { limit: 7, ...(cursor ? { cursor } : {}) },
        }),
      });
      return (await response.json()) as {
        products: { id: string }[];
        pagination: { cursor?: string; total_count: number };
      };
    };
    const ids: string[] = [];
    let answer = await page();
    ids.push(...answer.products.map((product) => product.id));
    while (answer.pagination.cursor) {
      answer = await page(answer.pagination.cursor);
      ids.push(...answer.products.map((product) => product.id));
    }
    // Every 7th product is ginger, every 7th beet (flavours cycle): none is both, so the partial matches.
    const expected = bundle.records
      .filter((record) => record.tags.includes('ginger') || record.tags.includes('beet'))
      .map((record) => record.id);
    expect(answer.pagination.total_count).toBe(expected.length);
    expect(ids).toHaveLength(expected.length);
    expect([...ids].sort()).toEqual([...expected].sort());
  });
});
