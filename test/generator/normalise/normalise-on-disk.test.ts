/**
 * The normaliser's rules with its products in a file, at a size past the first growth of
 * its digest tables (768 keys): a newer copy wins and may move its product to a free slug,
 * a copy moving to a slug another product holds stays out, an older copy changes nothing,
 * a second product with a slug taken is refused once (its later copies are duplicates), an
 * item the mapper refuses is warned about once, and a slug a newer copy left is free again.
 * Each outcome is asserted, and is the same as with the products in the heap.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeShelvedProducts } from '../../../generator/merge-shelved.js';
import { createNormaliser, type NormaliseResult } from '../../../generator/normalise/index.js';
import { spillingShelf } from '../../../generator/product-store/product-shelf.js';
import { makeShopifyProduct } from '../../fixtures/upstream/make-products.js';

const CONTEXT = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };
const COUNT = 2_000;

let parent = '';
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-normalise-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** Product `index` of the fixture store, changed by `change`. */
function item(index: number, change: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...makeShopifyProduct(index), ...change };
}

const LATER = '2027-01-01T00:00:00.000Z';
const EARLIER = '2025-01-01T00:00:00.000Z';

/** The store: COUNT products, then the copies and clashes each rule is about. */
function upstreamItems(): Record<string, unknown>[] {
  const items = Array.from({ length: COUNT }, (_, index) => item(index));
  const handle = (index: number) => String(makeShopifyProduct(index).handle);
  items.push(
    // A newer copy of 5 under a new handle: 5 moves, and its old handle is free.
    item(5, { handle: 'renamed-five', updated_at: LATER, title: 'Five Renamed' }),
    // A new product on 5's old handle: kept, the handle is free now.
    { ...item(3, { handle: handle(5), title: 'New On Old Handle' }), id: 9_000_001 },
    // A newer copy of 6 onto 7's handle: stays out.
    item(6, { handle: handle(7), updated_at: LATER, title: 'Six Onto Seven' }),
    // An older copy of 8: changes nothing.
    item(8, { updated_at: EARLIER, title: 'Eight Older' }),
    // A second product on 9's handle: refused, and its copy after is a duplicate.
    { ...item(9, { title: 'Nine Impostor' }), id: 9_000_002 },
    { ...item(9, { title: 'Nine Impostor Again' }), id: 9_000_002 },
    // An item the mapper refuses (no variants), twice: one warning.
    { ...item(10, { handle: 'no-variants', variants: [] }), id: 9_000_003 },
    { ...item(10, { handle: 'no-variants', variants: [] }), id: 9_000_003 },
  );
  return items;
}

function normaliseOnDisk(items: readonly unknown[]): NormaliseResult {
  const normaliser = createNormaliser('shopify', CONTEXT, undefined, spillingShelf(0, parent));
  for (const raw of items) normaliser.add(raw);
  return normaliser.finish();
}

function normaliseInHeap(items: readonly unknown[]): NormaliseResult {
  const normaliser = createNormaliser('shopify', CONTEXT);
  for (const raw of items) normaliser.add(raw);
  return normaliser.finish();
}

describe('the normaliser with its products on disk, past a growth of its tables', () => {
  it('when copies and clashes come then each rule holds as in the heap', () => {
    const items = upstreamItems();
    const heap = normaliseInHeap(items);
    const disk = normaliseOnDisk(items);
    const shelved = disk.shelved;
    if (shelved === undefined) throw new Error('the products did not go to disk');
    try {
      expect(disk.duplicates).toBe(heap.duplicates);
      expect(disk.duplicates).toBe(5);
      expect(disk.rejected).toEqual(heap.rejected);
      expect(disk.rejected.map((rejection) => rejection.id)).toEqual(['9000002', '9000003']);
      expect(disk.rejected[0]?.reason).toContain(
        `has the slug "${makeShopifyProduct(9).handle}" of product ${makeShopifyProduct(9).id} already`,
      );
      expect(shelved.slugs.kept).toBe(COUNT + 1);
      const merged = mergeShelvedProducts(shelved, { content: [] });
      const names = new Map(
        [...merged.products()].map((product) => [product.record.slug, product.record.name]),
      );
      expect(names.size).toBe(heap.products.length);
      for (const product of heap.products) expect(names.get(product.record.slug)).toBe(product.record.name);
      expect(names.get('renamed-five')).toBe('Five Renamed');
      expect(names.get(String(makeShopifyProduct(5).handle))).toBe('New On Old Handle');
      expect(names.get(String(makeShopifyProduct(7).handle))).toBe(makeShopifyProduct(7).title);
      expect(names.get(String(makeShopifyProduct(6).handle))).toBe(makeShopifyProduct(6).title);
      expect(names.get(String(makeShopifyProduct(8).handle))).toBe(makeShopifyProduct(8).title);
    } finally {
      shelved.close();
    }
  });
});
