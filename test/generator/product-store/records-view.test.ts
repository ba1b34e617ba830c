/**
 * The catalog's records as the gate reads them when the products are on disk
 * (generator/product-store/records-view.ts): an array to every reader, with the records
 * read back as they are indexed or walked, and the same problems found in it as in the array.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlannedProduct } from '../../../generator/plan.js';
import { recordsView } from '../../../generator/product-store/records-view.js';
import { type StoredProducts, storeProducts } from '../../../generator/product-store/stored-products.js';
import { validateAgainst } from '../../../generator/validate/schemas.js';
import {
  catalogOf,
  makeSampleConfig,
  makeSamplePlan,
  makeVariedProducts,
} from '../../helpers/sample-plan.js';

let parent = '';
let stored: StoredProducts | undefined;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-view-test-'));
});
afterEach(async () => {
  stored?.close();
  stored = undefined;
  await rm(parent, { recursive: true, force: true });
});

function variedProducts(): PlannedProduct[] {
  return makeVariedProducts(makeSampleConfig());
}

describe('the records of products on disk, as an array', () => {
  it('when read like an array then it gives the records, in order', () => {
    const products = variedProducts();
    stored = storeProducts(products, parent);
    const view = recordsView(stored);
    const records = products.map((product) => product.record);
    expect(Array.isArray(view)).toBe(true);
    expect(view.length).toBe(records.length);
    expect([...view]).toEqual(records);
    expect(view.map((record) => record.slug)).toEqual(records.map((record) => record.slug));
    expect([...view.entries()].map(([index, record]) => [index, record.id])).toEqual(
      records.map((record, index) => [index, record.id]),
    );
    expect(view[1]).toEqual(records[1]);
    expect(view[records.length]).toBeUndefined();
    expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(records)));
    expect(Object.keys(view)).toEqual(records.map((_, index) => String(index)));
  });

  it('when written to then it refuses', () => {
    stored = storeProducts(variedProducts(), parent);
    const view = recordsView(stored) as unknown as unknown[];
    expect(() => {
      view[0] = {};
    }).toThrow(/read-only/);
    expect(() => view.push({})).toThrow(/read-only/);
  });

  it('when a record breaks the schema then the catalog check finds what it finds in the array', () => {
    const [first, ...rest] = variedProducts();
    if (first === undefined) throw new Error('no product');
    const broken = { ...first, record: { ...first.record, price: 12 as unknown as string, currency: 'usd' } };
    const products = [...rest.slice(0, 2), broken, ...rest.slice(2)];
    stored = storeProducts(products, parent);
    const { catalog } = makeSamplePlan();
    const asArray = validateAgainst(
      'Catalog',
      { ...catalog, count: products.length, products: products.map((product) => product.record) },
      'agent-catalog.json',
    );
    const asView = validateAgainst(
      'Catalog',
      { ...catalog, count: products.length, products: recordsView(stored) },
      'agent-catalog.json',
    );
    expect(asArray.length).toBeGreaterThan(0);
    expect(asView).toEqual(asArray);
  });

  it('when the products are an array then the view is their records', () => {
    const plan = makeSamplePlan();
    expect(recordsView(plan.products)).toEqual(catalogOf(plan).products);
  });
});
