import { describe, expect, it } from 'vitest';
import { readJsonEnvelope, walkJsonRecords } from '../../../generator/validate/json-walk.js';

const CATALOG = {
  merchant: { name: 'Pomona', url: 'https://pomona.example' },
  count: 3,
  products: [{ slug: 'a', price: '1.00' }, { slug: 'é-b', tags: ['x', { y: [1, 2] }] }, 'not an object'],
  checkout: { url: 'https://pomona.example/cart' },
};

/** The text cut into pieces of `size` bytes, as a part or a read chunk may cut it. */
function bytesIn(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

describe('a listed JSON document walked record by record', () => {
  it('when the bytes are cut anywhere, even inside a character, then the records and envelope are those of JSON.parse', () => {
    const text = JSON.stringify(CATALOG, null, 2);
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      expect([...walkJsonRecords(bytesIn(text, size), 'products')], `${size}`).toEqual(CATALOG.products);
      expect(readJsonEnvelope(bytesIn(text, size), 'products')).toEqual({
        ok: true,
        value: { ...CATALOG, products: [] },
        records: 3,
      });
    }
  });

  it('when kb/products.json is an array then its elements are the records', () => {
    const text = JSON.stringify(CATALOG.products);
    expect([...walkJsonRecords([text], 'root-or-products')]).toEqual(CATALOG.products);
    expect(readJsonEnvelope([text], 'root-or-products')).toEqual({ ok: true, value: [], records: 3 });
    expect(readJsonEnvelope([text], 'products')).toEqual({
      ok: true,
      value: CATALOG.products,
      records: undefined,
    });
  });

  it('when the document has no products array then there is no list and nothing is walked', () => {
    const text = JSON.stringify({ count: 0, products: 'none' });
    expect(readJsonEnvelope([text], 'products')).toEqual({
      ok: true,
      value: { count: 0, products: 'none' },
      records: undefined,
    });
    expect([...walkJsonRecords([text], 'products')]).toEqual([]);
  });

  it('when the JSON is cut short, empty or followed by more text then it is refused as JSON.parse refuses it', () => {
    const text = JSON.stringify(CATALOG);
    for (const broken of [text.slice(0, -5), '', `${text} x`, `${text}{}`, '{"products": [1,]}']) {
      expect(() => JSON.parse(broken), broken).toThrow();
      expect(readJsonEnvelope([broken], 'products').ok, broken).toBe(false);
    }
    expect(readJsonEnvelope([`${text}\n  \n`], 'products').ok).toBe(true);
  });
});
