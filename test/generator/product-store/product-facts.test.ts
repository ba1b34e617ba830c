/**
 * Each product's price and availability taken as the products are kept
 * (generator/product-store/product-facts.ts): with the key column's slugs they are the
 * facts the records give, and a column taken from another list is refused.
 */
import { describe, expect, it } from 'vitest';
import type { PlannedProduct } from '../../../generator/plan.js';
import {
  FactColumnWriter,
  productFactsOf,
  rememberFactColumn,
} from '../../../generator/product-store/product-facts.js';
import { makeManyProducts, makeSampleConfig, makeVariedProducts } from '../../helpers/sample-plan.js';

function someProducts(): PlannedProduct[] {
  const config = makeSampleConfig();
  return [...makeVariedProducts(config), ...makeManyProducts(config, 40)].map((product, index) => ({
    ...product,
    record: {
      ...product.record,
      availability: index % 4 === 0 ? 'out_of_stock' : product.record.availability,
    },
  }));
}

function columnOf(products: readonly PlannedProduct[]) {
  const writer = new FactColumnWriter();
  for (const product of products) writer.add(product.record);
  return writer.finish();
}

describe("the products' facts column", () => {
  it('when the column is remembered then the facts are those the records give', () => {
    const products = someProducts();
    const fromRecords = [...productFactsOf([...products])];
    rememberFactColumn(products, columnOf(products));
    expect([...productFactsOf(products)]).toEqual(fromRecords);
    expect(new Set(fromRecords.map((fact) => fact.availability)).size).toBeGreaterThan(1);
  });

  it('when the column holds another count of products then it is refused', () => {
    const products = someProducts();
    expect(() => rememberFactColumn(products.slice(1), columnOf(products))).toThrow(TypeError);
  });
});
