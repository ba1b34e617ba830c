/**
 * The normaliser's memo: a rebuild reads back what an unchanged upstream item mapped to
 * instead of mapping it again, and anything that could change the mapping (the item's
 * bytes, the format, the mapping context) leads to mapping afresh. Proven on the real
 * stores' exports and through the build with its fragment file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import { FRAGMENT_FILE_NAME } from '../../../generator/cache/fragment-store.js';
import {
  createNormaliser,
  type ItemKey,
  type MapContext,
  type NormalisedProduct,
  type NormaliseMemo,
  type UpstreamFormat,
} from '../../../generator/normalise/index.js';
import { itemDigests } from '../../../generator/normalise/item-key.js';
import {
  FIXED_NOW,
  FIXTURES_DIR,
  makeWorkspace,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const CONTEXT: MapContext = {
  siteUrl: 'https://fixture-juice.example',
  currency: 'USD',
  comingSoonTag: 'coming-soon',
};

const EXPORTS: [file: string, format: UpstreamFormat][] = [
  ['shopify-egypt-cables.json', 'shopify'],
  ['shopify-robot-store.json', 'shopify'],
  ['shopify-store-shapes.json', 'shopify'],
  ['woocommerce-store-shapes.json', 'woocommerce'],
];

async function readItems(file: string): Promise<unknown[]> {
  const data: unknown = JSON.parse(await readFile(join(FIXTURES_DIR, 'upstream', file), 'utf8'));
  return Array.isArray(data) ? data : (data as { products: unknown[] }).products;
}

/** A memo in memory that counts what it was asked. */
function memoryMemo(): NormaliseMemo & { kept: Map<string, string>; recalled: number; remembered: number } {
  const kept = new Map<string, string>();
  const memo = {
    kept,
    recalled: 0,
    remembered: 0,
    recall({ id, digest }: ItemKey) {
      const json = kept.get(`${id} ${digest}`);
      if (json === undefined) return undefined;
      memo.recalled += 1;
      return JSON.parse(json) as NormalisedProduct;
    },
    remember({ id, digest }: ItemKey, product: NormalisedProduct) {
      memo.remembered += 1;
      kept.set(`${id} ${digest}`, JSON.stringify(product));
    },
  };
  return memo;
}

function normalise(items: readonly unknown[], format: UpstreamFormat, memo?: NormaliseMemo) {
  const normaliser = createNormaliser(format, CONTEXT, memo);
  for (const item of items) normaliser.add(item);
  return normaliser.finish();
}

describe('the normaliser with a memo', () => {
  it.each(EXPORTS)(
    'when %s is read a second time then every product is recalled, equal to a fresh mapping',
    async (file, format) => {
      const items = await readItems(file);
      const memo = memoryMemo();
      const first = normalise(items, format, memo);
      expect(memo.recalled).toBe(0);
      // Every item that mapped (a duplicate or a slug taken twice included), none of those refused.
      expect(memo.remembered).toBe(items.length - first.rejected.length);
      const second = normalise(items, format, memo);
      expect(memo.recalled).toBe(memo.remembered);
      expect(first.products.length).toBeGreaterThan(0);
      // Strict: a field that JSON could not carry (undefined, a Date) would show here.
      expect(second).toStrictEqual(normalise(items, format));
      expect(second).toStrictEqual(first);
    },
  );

  it('when an item changes, or the format or the context does, then its digest changes', async () => {
    const [item] = await readItems('shopify-store-shapes.json');
    const key = itemDigests('shopify', CONTEXT);
    const changed = { ...(item as Record<string, unknown>), title: 'Another title' };
    expect(key(structuredClone(item))).toBe(key(item));
    expect(key(changed)).not.toBe(key(item));
    expect(itemDigests('woocommerce', CONTEXT)(item)).not.toBe(key(item));
    expect(itemDigests('shopify', { ...CONTEXT, currency: 'EUR' })(item)).not.toBe(key(item));
    expect(itemDigests('shopify', { ...CONTEXT, siteUrl: 'https://other.example' })(item)).not.toBe(
      key(item),
    );
    expect(itemDigests('shopify', { ...CONTEXT, comingSoonTag: 'soon' })(item)).not.toBe(key(item));
  });

  it('when an item is refused then it is not remembered, and it is refused again with its reason', () => {
    const memo = memoryMemo();
    const refused = { id: 7, title: 'No handle', variants: [] };
    const first = normalise([refused], 'shopify', memo);
    expect(first.rejected).toHaveLength(1);
    expect(memo.kept.size).toBe(0);
    expect(normalise([refused], 'shopify', memo).rejected).toEqual(first.rejected);
  });
});

describe('the memo in the build cache', () => {
  let dir = '';
  let cleanup: () => Promise<void> = async () => {};
  beforeEach(async () => {
    ({ dir, cleanup } = await makeWorkspace('sample-small'));
  });
  afterEach(() => cleanup());

  const options = (now: Date) => writingBuildOptions(dir, now);

  function mappedRows(): { slug: string; digest: string; bytes: Buffer }[] {
    const db = new Database(join(dir, '.dist-cache', FRAGMENT_FILE_NAME), { fileMustExist: true });
    try {
      return db
        .prepare("SELECT slug, digest, bytes FROM fragments WHERE kind = 'mapped-item' ORDER BY slug")
        .all() as { slug: string; digest: string; bytes: Buffer }[];
    } finally {
      db.close();
    }
  }

  it('when a product was read before then its mapping comes from the cache, and a changed one is mapped again', async () => {
    const first = await build(options(FIXED_NOW));
    const rows = mappedRows();
    expect(rows).toHaveLength(first.plan.products.length);
    // Mark one product's remembered mapping: a recall carries the mark, a fresh mapping would not.
    const [marked] = rows;
    if (marked === undefined) throw new Error('no mapped item');
    const product = JSON.parse(marked.bytes.toString('utf8')) as NormalisedProduct;
    const db = new Database(join(dir, '.dist-cache', FRAGMENT_FILE_NAME), { fileMustExist: true });
    db.prepare("UPDATE fragments SET bytes = ? WHERE kind = 'mapped-item' AND slug = ?").run(
      Buffer.from(JSON.stringify({ ...product, record: { ...product.record, name: 'RECALLED' } })),
      marked.slug,
    );
    db.close();
    const other = [...first.plan.products].find((item) => item.record.slug !== product.record.slug);
    if (other === undefined) throw new Error('the sample has one product only');
    await setUpstreamPrice(dir, other.record.slug, '97.00');
    const later = new Date(FIXED_NOW.getTime() + 3_600_000);
    const second = await build(options(later));
    const names = new Map([...second.plan.products].map((item) => [item.record.slug, item.record]));
    expect(names.get(product.record.slug)?.name).toBe('RECALLED');
    expect(names.get(other.record.slug)?.price).toBe('97.00');
    // One row per upstream id; the changed item's row now holds its new digest, the others theirs.
    const after = mappedRows();
    expect(after.map((row) => row.slug)).toEqual(rows.map((row) => row.slug));
    const moved = after.filter((row, index) => row.digest !== rows[index]?.digest);
    expect(moved.map((row) => row.slug)).toEqual([other.sourceId]);
  });

  it('when an item leaves the store then its row leaves the file at the next published build', async () => {
    await build(options(FIXED_NOW));
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { products: { id: number }[] };
    const gone = String(data.products.pop()?.id);
    await writeFile(file, JSON.stringify(data));
    expect(mappedRows().map((row) => row.slug)).toContain(gone);
    await build({ ...options(new Date(FIXED_NOW.getTime() + 3_600_000)), allowShrink: true });
    const left = mappedRows().map((row) => row.slug);
    expect(left).not.toContain(gone);
    expect(left).toHaveLength(data.products.length);
  });
});
