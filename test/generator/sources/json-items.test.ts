/**
 * The byte-level item splitter: whatever the chunk boundaries (every size from one byte),
 * it cuts out exactly the values `JSON.parse` sees, escapes and multi-byte characters
 * included, and refuses what `JSON.parse` refuses, naming the byte offset.
 */
import { describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { type JsonItemEvent, readJsonItems } from '../../../generator/sources/json-items.js';

async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function split(text: string, size: number, maxItemBytes = 1 << 20) {
  const events: JsonItemEvent[] = [];
  const options = { where: 'catalog.json', maxItemBytes, listKey: 'products' };
  for await (const run of readJsonItems(chunksOf(text, size), options)) events.push(...run);
  const items = events.flatMap((event) => (event.kind === 'item' ? [event.value] : []));
  const members = Object.fromEntries(
    events.flatMap((event) => (event.kind === 'member' ? [[event.key, event.value]] : [])),
  );
  return { items, members, events };
}

const TRICKY = {
  merchant: { name: 'é 🍍 抹茶', quote: '"}]{[' },
  products: [{ a: 'x"}]{', b: [1, { c: '\\' }], d: '\\"', e: '\\\\' }, 2, 's', null, true, -1.5e3, [], {}],
  generated: '2026',
};

const CHUNK_SIZES = [1, 2, 3, 5, 7, 64, 4096];

describe('readJsonItems', () => {
  test.each(CHUNK_SIZES)(
    'when a document arrives in chunks of %i bytes then each item and member is what JSON.parse gives',
    async (size) => {
      const { products, ...members } = TRICKY;
      const result = await split(JSON.stringify(TRICKY, null, size % 2 === 0 ? 2 : undefined), size);
      expect(result.items).toEqual(products);
      expect(result.members).toEqual(members);
    },
  );

  test.each(CHUNK_SIZES)(
    'when a bare array arrives in chunks of %i bytes then its elements are the items',
    async (size) => {
      const result = await split(` [ {"a" : 1} , {"b":"\\\\\\""} , "\\u00e9" ] `, size);
      expect(result.items).toEqual([{ a: 1 }, { b: '\\"' }, 'é']);
      expect(result.events[0]).toEqual({ kind: 'root', root: 'array' });
    },
  );

  test('when the list is empty then the list event still says it is there', async () => {
    const result = await split('{"count":0,"products":[]}', 3);
    expect(result.events.map((event) => event.kind)).toEqual(['root', 'member', 'list']);
  });

  test.each([
    ['cut inside an item', '{"products":[{"a":"xx', 21],
    ['cut after an item', '{"products":[{"a":1}', 20],
    ['a trailing comma', '{"products":[{"a":1},]}', 21],
    ['two items without a comma', '{"products":[1 2]}', 15],
    ['an item that does not parse', '{"products":[1,{"a":}]}', 15],
    ['a second document', '{"products":[1]}\n{}', 17],
    ['nothing at all', '  ', 2],
    ['a scalar root', '42', 0],
  ])('when the file has %s then UPSTREAM_SHAPE names the byte offset', async (_case, text, offset) => {
    for (const size of [1, 4, 100]) {
      const error = await split(text, size).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isCatalogError(error, 'UPSTREAM_SHAPE') && error.details.offset).toBe(offset);
    }
  });

  test('when an item or another member is larger than the bound then UPSTREAM_TOO_LARGE, before the rest is read', async () => {
    const long = 'x'.repeat(200);
    for (const [text, detail] of [
      [`{"products":[1,{"a":"${long}"}]}`, { item: 1 }],
      [`{"padding":"${long}","products":[]}`, { member: 'padding' }],
    ] as const) {
      const error = await split(text, 7, 100).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE') && error.details).toMatchObject({
        ...detail,
        maxBytes: 100,
      });
    }
  });
});
