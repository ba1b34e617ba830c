import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../generator/config.js';
import { sanitizeXmlText } from '../../../generator/emit/xml-text.js';
import { isCatalogError } from '../../../generator/errors.js';
import { cleanDeep, cleanText, hasUnwantedCharacters } from '../../../generator/normalise/clean-text.js';
import { normaliseProducts } from '../../../generator/normalise/index.js';
import { catchError } from '../../helpers/catch-error.js';

const code = (point: number) => String.fromCodePoint(point);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => code(from + i));

describe('cleanText, by character class', () => {
  it.each([
    [
      'C0 controls other than tab, line feed and carriage return',
      [...range(0x00, 0x08), '\u000B', '\u000C', ...range(0x0e, 0x1f)],
    ],
    ['DEL and the C1 controls', range(0x7f, 0x9f)],
    ['bidirectional embeddings and overrides', range(0x202a, 0x202e)],
    ['bidirectional isolates', range(0x2066, 0x2069)],
    ['the noncharacters U+FFFE and U+FFFF', ['\uFFFE', '\uFFFF']],
    ['lone surrogates', ['\uD800', '\uDFFF']],
  ])('removes %s', (_name, characters) => {
    for (const character of characters) {
      expect(cleanText(`Spicy ginger${character} kick`)).toBe('Spicy ginger kick');
    }
  });

  it.each([
    ['tab, line feed and carriage return', ['\t', '\n', '\r']],
    ['the right-to-left and left-to-right marks', ['\u200E', '\u200F', '\u061C']],
    ['emoji (a surrogate pair) and non-Latin letters', ['🍏', '青', 'Ω', 'ש']],
    ['the line and paragraph separators', ['\u2028', '\u2029']],
  ])('keeps %s', (_name, characters) => {
    for (const character of characters) expect(cleanText(`a${character}b`)).toBe(`a${character}b`);
  });

  it('leaves nothing that the XML feed would still strip', () => {
    const all = `${Array.from({ length: 0x3000 }, (_, i) => code(i)).join('')}\uFFFE\uFFFF\uD800`;
    const cleaned = cleanText(all);
    expect(sanitizeXmlText(cleaned)).toBe(cleaned.replace(/\r\n?/g, '\n'));
  });

  it('cleans every string and key of parsed JSON, leaving numbers and booleans', () => {
    expect(cleanDeep({ 'a\u0007': ['x\u202Ey', 1, true, null, { k: 'v\u0085' }] })).toEqual({
      a: ['xy', 1, true, null, { k: 'v' }],
    });
  });

  it('when only a deep string or a late key is dirty then the result equals a full clean copy, key order kept', () => {
    const raw = JSON.parse(
      '{"id":1,"tags":["a","b"],"variants":[{"p":"1"},{"p":"2\\u0007"}],"z":"ok","late\\u0008":"k"}',
    ) as Record<string, unknown>;
    const cleaned = cleanDeep(raw) as Record<string, unknown>;
    expect(cleaned).toEqual({
      id: 1,
      tags: ['a', 'b'],
      variants: [{ p: '1' }, { p: '2' }],
      z: 'ok',
      late: 'k',
    });
    expect(Object.keys(cleaned)).toEqual(['id', 'tags', 'variants', 'z', 'late']);
    // The upstream value itself is never changed.
    expect((raw.variants as { p: string }[])[1]?.p).toBe('2\u0007');
  });

  it('when parsed JSON holds a "__proto__" key then it is treated as a plain copy always treated it', () => {
    const raw = JSON.parse('{"name":"x","__proto__":{"polluted":"yes"}}') as Record<string, unknown>;
    const cleaned = cleanDeep(raw) as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) plain[key] = value;
    expect(Object.keys(cleaned)).toEqual(Object.keys(plain));
    expect(Object.getPrototypeOf(cleaned)).toEqual(Object.getPrototypeOf(plain));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('normalisation cleans every adapter once', () => {
  const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };

  it('when a Shopify description holds U+0008 then the record does not', () => {
    const raw = {
      id: 1,
      title: 'Ginger\u202E Shot',
      handle: 'ginger-shot',
      body_html: '<p>Spicy ginger\u0008 kick</p>',
      variants: [{ id: 1, price: '9.00', available: true }],
    };
    const [product] = normaliseProducts([raw], 'shopify', context).products;
    expect(product?.record.name).toBe('Ginger Shot');
    expect(product?.record.description).toBe('Spicy ginger kick');
  });

  it('when native text fields hold controls then every field of the record is clean', () => {
    const raw = {
      name: 'Beet\u0085',
      slug: 'beet',
      flavor: 'Earthy\u0001',
      description: 'Red\u2066 root',
      ingredients: ['beet\u0000', 'apple'],
      nutrition: { sugar_g: 4, serving: '12\u001b oz' },
      benefits: ['iron\u007f'],
      price: '8.00',
      availability: 'in_stock',
    };
    const [product] = normaliseProducts([raw], 'native', context).products;
    expect(hasUnwantedCharacters(JSON.stringify(product?.record))).toBe(false);
    expect(product?.record).toMatchObject({ name: 'Beet', flavor: 'Earthy', description: 'Red root' });
  });
});

describe("the merchant's own config text", () => {
  it('when merchant.name holds a control character then CONFIG_INVALID names the field', () => {
    const raw = {
      merchant: {
        name: 'Bell\u0007 Juice',
        url: 'https://bell.example',
        contact: 'hi@bell.example',
        currency: 'USD',
        ships_to: ['US'],
      },
      auth_url: 'https://auth.bell.example',
      upstream: { source: 'products.json' },
    };
    const error = catchError(() =>
      resolveConfig(raw, { file: 'catalog.config.json', configDir: '/nonexistent' }),
    );
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toEqual(['merchant.name']);
  });
});
