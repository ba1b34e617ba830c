/**
 * The hooks bench's one price change (scripts/bench/price-change.ts): which product it
 * changed, found in the store file's text without parsing it, and nothing else changed.
 */
import { describe, expect, it } from 'vitest';
import { raiseFirstPrice } from '../../../scripts/bench/price-change.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';

describe('raiseFirstPrice', () => {
  it('when the store file lists products then the first variant price of the first product is raised by one and that product is named', () => {
    const products = makeShopifyProducts(3);
    const { text, change } = raiseFirstPrice(JSON.stringify({ products }));
    const first = products[0];
    const variant = first?.variants[0];
    expect(change).toEqual({
      handle: first?.handle,
      id: first?.id,
      from: variant?.price,
      to: `${Number(variant?.price.split('.')[0]) + 1}.${variant?.price.split('.')[1]}`,
    });
    const after = JSON.parse(text) as { products: typeof products };
    expect(after.products[0]?.variants[0]?.price).toBe(change.to);
    if (variant) variant.price = change.to;
    expect(after.products).toEqual(products);
  });

  it('when the file holds one product a line then the same product is found', () => {
    const products = makeShopifyProducts(2);
    const { change } = raiseFirstPrice(products.map((product) => JSON.stringify(product)).join('\n'));
    expect(change.handle).toBe(products[0]?.handle);
    expect(change.id).toBe(products[0]?.id);
  });

  it('when a text value spells out a handle key then only the real key names the product', () => {
    const product = {
      id: 1,
      handle: 'real-one',
      // After the real key, so a match inside the text would be the last one before the price.
      title: '"handle":"not-me"',
      variants: [{ price: '4.50', product_id: 1 }],
    };
    expect(raiseFirstPrice(JSON.stringify({ products: [product] })).change).toMatchObject({
      handle: 'real-one',
      from: '4.50',
      to: '5.50',
    });
  });

  it('when there is no price or no handle before it then it refuses', () => {
    expect(() => raiseFirstPrice('{"products":[]}')).toThrow(/no price/);
    expect(() => raiseFirstPrice('{"variants":[{"price":"1.00","product_id":1}]}')).toThrow(
      /no product handle/,
    );
  });
});
