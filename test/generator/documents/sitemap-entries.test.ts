/**
 * The sitemap's entries taken as the products are kept (generator/emit/sitemap-entries.ts):
 * the column gives each product's URL and lastmod exactly as its record does, and a catalog
 * it cannot hold exactly keeps no column, so the sitemap reads the records instead.
 */
import { describe, expect, it } from 'vitest';
import {
  rememberSitemapColumn,
  SitemapColumnWriter,
  sitemapProductsOf,
} from '../../../generator/emit/sitemap-entries.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { makeManyProducts, makeSampleConfig, makeVariedProducts } from '../../helpers/sample-plan.js';

function someProducts(): PlannedProduct[] {
  const config = makeSampleConfig();
  const products = [...makeVariedProducts(config), ...makeManyProducts(config, 50)];
  // A store time, a cache time, neither, and a URL with a suffix after its slug.
  return products.map((product, index) => ({
    ...product,
    ...(index % 3 === 0 ? { updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString() } : {}),
    ...(index % 3 === 1 ? { changedAt: '2026-11-21T12:00:00.000Z' } : {}),
    record: {
      ...product.record,
      url: index % 5 === 0 ? `https://other.example/p/${product.record.slug}/` : product.record.url,
    },
  }));
}

/** The entries as the records give them: what the sitemap lists without a column. */
function fromRecords(products: readonly PlannedProduct[]) {
  return [...sitemapProductsOf([...products])];
}

function withColumn(products: PlannedProduct[]) {
  const writer = new SitemapColumnWriter();
  for (const product of products) writer.add(product);
  const column = writer.finish();
  rememberSitemapColumn(products, column);
  return { column, entries: [...sitemapProductsOf(products)] };
}

describe("the sitemap's column of entries", () => {
  it('when the products are kept then the column gives every entry as the records do', () => {
    const products = someProducts();
    const { column, entries } = withColumn(products);
    expect(column).toBeDefined();
    expect(entries).toEqual(fromRecords(products));
    expect(entries.some((entry) => entry.lastmod === undefined)).toBe(true);
  });

  it('when a store time would not read back as written then no column is kept and the records are read', () => {
    const products = someProducts();
    const [first] = products;
    if (first === undefined) throw new Error('the helpers made no product');
    // A W3C Datetime the sitemap lists as it is: a number would give it back in UTC.
    products[0] = { ...first, updatedAt: '2026-11-20T10:00:00+02:00' };
    const { column, entries } = withColumn(products);
    expect(column).toBeUndefined();
    expect(entries[0]?.lastmod).toBe('2026-11-20T10:00:00+02:00');
    expect(entries).toEqual(fromRecords(products));
  });

  it('when a URL does not hold its slug then no column is kept', () => {
    const products = someProducts();
    const [first] = products;
    if (first === undefined) throw new Error('the helpers made no product');
    products[0] = { ...first, record: { ...first.record, url: 'https://shop.example/item?id=1' } };
    const { column, entries } = withColumn(products);
    expect(column).toBeUndefined();
    expect(entries[0]?.url).toBe('https://shop.example/item?id=1');
  });
});
