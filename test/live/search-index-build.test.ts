/**
 * The index's writer reads each product once (search-index-file.ts) and must write the
 * file the two-pass writer wrote (test/live/search-oracle/old-search-index-file.ts), to
 * the byte: the same terms, postings and quantised impacts, for varied catalogs, text
 * beyond ASCII, words repeated past what a packed count holds, words every product or one
 * product carries, and products of 40 variants (since the builder keeps postings in a byte
 * stream and columns in typed arrays, not a list per term and an object per row).
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, searchRowOf } from '../../live/search-index-file.js';
import type { ProductRecord } from '../../record/product-record.js';
import { makeAwkwardRecords } from './awkward-catalog.js';
import { buildOldSearchIndexOfRows } from './search-oracle/old-search-index-file.js';
import { makeVariedRecords } from './varied-catalog.js';

const ODD_TEXTS = [
  'Açaí Bowls',
  'ﬁne Ｆｕｌｌｗｉｄｔｈ ９９',
  'İstanbul ÇAY',
  'Straße MASSES',
  '日本茶 緑茶',
  'مشروب الطاقة',
  'emoji 🍋🍊 lemons',
  'ΣΊΣΥΦΟΣ όσος',
  'Ⅻ ½ ²',
  'x_y-z.w',
  '',
];

function oddRecords(): ProductRecord[] {
  return makeVariedRecords(300, 7).map((record, index) => ({
    ...record,
    name: `${ODD_TEXTS[index % ODD_TEXTS.length]} ${record.name}`,
    brand: ODD_TEXTS[(index * 5) % ODD_TEXTS.length] ?? null,
    description: `${record.description ?? ''} ${ODD_TEXTS[(index * 7) % ODD_TEXTS.length]}`,
  }));
}

/**
 * Words a field carries hundreds of times, more than eight bits of a packed count: rare
 * ones (each product its own), whose impacts a wrong count would change.
 */
function repeatingRecords(): ProductRecord[] {
  return makeVariedRecords(40, 11).map((record, index) => ({
    ...record,
    name: `${`cold${index} `.repeat(index * 9)}${record.name}`,
    description: `${`zest${index} `.repeat(250 + index * 3)} ${'mango lime '.repeat(index * 20)}`,
    tags: Array.from({ length: 250 + index }, () => `peel${index}`),
  }));
}

function oldIndexOf(records: readonly ProductRecord[]) {
  return buildOldSearchIndexOfRows(records.length, (product) =>
    searchRowOf(records[product] as ProductRecord),
  );
}

describe('the index written in one pass', () => {
  it.each([
    ['a varied catalog', makeVariedRecords(3_000)],
    ['text beyond ASCII', oddRecords()],
    ['words repeated hundreds of times in a field', repeatingRecords()],
    ['scripts beyond Latin, emoji, common and one-off words, 40 variants', makeAwkwardRecords(600)],
    ['one product', makeVariedRecords(1)],
    ['no products', []],
  ])('is the two-pass writer’s file for %s', (_, records) => {
    expect(buildSearchIndex(records)).toEqual(oldIndexOf(records));
  });
});
