import { describe, expect, test } from 'vitest';
import type { MapContext, MapOutcome, NormalisedProduct } from '../../../generator/normalise/types.js';
import { mapWooProduct } from '../../../generator/normalise/woocommerce.js';

const context: MapContext = {
  siteUrl: 'https://shop.pomona.example',
  currency: 'USD',
  comingSoonTag: 'coming-soon',
};

function wooProduct(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 501,
    name: 'Beet Boost',
    slug: 'beet-boost',
    permalink: 'https://shop.pomona.example/product/beet-boost/',
    description: '<p>Beets, lemon &amp; ginger.</p>',
    short_description: '<p>Earthy.</p>',
    prices: { price: '1234', currency_code: 'USD', currency_minor_unit: 2 },
    images: [{ id: 1, src: 'https://shop.pomona.example/wp-content/uploads/beet.jpg' }],
    tags: [{ id: 1, name: 'Organic', slug: 'organic' }],
    is_purchasable: true,
    is_in_stock: true,
    stock_availability: { text: 'In stock', class: 'in-stock' },
    ...overrides,
  };
}

function mapped(outcome: MapOutcome): NormalisedProduct {
  if (!outcome.ok) throw new Error(`expected a product, got: ${outcome.rejected.reason}`);
  return outcome.product;
}

describe('mapWooProduct', () => {
  test('when a product is complete then every field is mapped', () => {
    expect(mapped(mapWooProduct(wooProduct(), context))).toEqual({
      sourceId: '501',
      record: {
        name: 'Beet Boost',
        slug: 'beet-boost',
        url: 'https://shop.pomona.example/product/beet-boost/',
        description: 'Beets, lemon & ginger.',
        ingredients: null,
        nutrition: null,
        benefits: null,
        certifications: null,
        price: '12.34',
        currency: 'USD',
        availability: 'in_stock',
        purchase_url: 'https://shop.pomona.example/product/beet-boost/',
        id: '501',
        tags: ['Organic'],
        images: [{ url: 'https://shop.pomona.example/wp-content/uploads/beet.jpg' }],
        options: [],
        variants: [
          {
            id: '501',
            title: 'Beet Boost',
            options: [],
            price: '12.34',
            availability: 'in_stock',
            requires_shipping: true,
          },
        ],
        requires_shipping: true,
      },
      imageUrl: 'https://shop.pomona.example/wp-content/uploads/beet.jpg',
    });
  });

  test.each([
    ['is_in_stock false', { is_in_stock: false }, 'out_of_stock'],
    ['is_purchasable false', { is_purchasable: false }, 'out_of_stock'],
    ['an out-of-stock class', { stock_availability: { class: 'out-of-stock' } }, 'out_of_stock'],
    [
      'a coming-soon tag slug',
      { is_in_stock: false, tags: [{ name: 'Soon!', slug: 'coming-soon' }] },
      'coming_soon',
    ],
    ['a coming-soon tag name', { tags: [{ name: 'Coming-Soon', slug: 'cs' }] }, 'coming_soon'],
    [
      'no stock fields',
      { is_in_stock: undefined, is_purchasable: undefined, stock_availability: undefined },
      'in_stock',
    ],
  ])('when the product has %s then it is %s', (_case, overrides, availability) => {
    expect(mapped(mapWooProduct(wooProduct(overrides), context)).record.availability).toBe(availability);
  });

  test.each([
    [{ price: '1234', currency_minor_unit: 2 }, '12.34'],
    [{ price: '5', currency_minor_unit: 2 }, '0.05'],
    [{ price: '0', currency_minor_unit: 2 }, '0.00'],
    [{ price: '1234', currency_minor_unit: 0 }, '1234.00'],
    [{ price: '999', currency_minor_unit: 2, price_range: { min_amount: '450', max_amount: '999' } }, '4.50'],
  ])('when prices are %j then the price is %s', (prices, expected) => {
    const product = wooProduct({ prices: { currency_code: 'USD', ...prices } });
    expect(mapped(mapWooProduct(product, context)).record.price).toBe(expected);
  });

  test('when the description is empty then the short description is used', () => {
    const product = mapped(mapWooProduct(wooProduct({ description: '' }), context));
    expect(product.record.description).toBe('Earthy.');
  });

  test('when the slug is percent-encoded non-Latin text then it is decoded', () => {
    const product = mapped(
      mapWooProduct(wooProduct({ slug: '%e6%8a%b9%e8%8c%b6-latte', name: '抹茶 Latte 🍵' }), context),
    );
    expect(product.record.slug).toBe('抹茶-latte');
    expect(product.record.name).toBe('抹茶 Latte 🍵');
  });

  test.each([
    ['no name', { name: '' }],
    ['no permalink', { permalink: null }],
    ['a relative permalink', { permalink: '/product/beet-boost/' }],
    [
      'a price in another currency',
      { prices: { price: '1234', currency_code: 'EUR', currency_minor_unit: 2 } },
    ],
    [
      'a decimal where minor units belong',
      { prices: { price: '12.34', currency_code: 'USD', currency_minor_unit: 2 } },
    ],
    ['no prices', { prices: undefined }],
    ['a slug with spaces', { slug: 'beet boost' }],
  ])('when a product has %s then it is rejected and named', (_case, overrides) => {
    const outcome = mapWooProduct(wooProduct(overrides), context);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.rejected.id).toBe('501');
      expect(outcome.rejected.reason).toContain('501');
    }
  });

  test.each([
    ['a pretty permalink', 'https://shop.pomona.example/product/beet-boost/', 'beet-boost'],
    ['a plain permalink', 'https://shop.pomona.example/?product=beet-boost', 'beet-boost'],
    ['a percent-encoded one', 'https://shop.pomona.example/product/%e6%8a%b9%e8%8c%b6/', '抹茶'],
  ])('when an older answer has no slug field then it comes from %s', (_case, permalink, slug) => {
    const outcome = mapWooProduct(wooProduct({ slug: undefined, permalink }), context);
    expect(outcome.ok ? outcome.product.record.slug : outcome.rejected.reason).toBe(slug);
  });

  test('when there is no slug field and the permalink names no product then the reason names the field', () => {
    const outcome = mapWooProduct(
      wooProduct({ slug: undefined, permalink: 'https://shop.pomona.example/' }),
      context,
    );
    expect(outcome.ok ? undefined : outcome.rejected.reason).toBe(
      'product 501 ("Beet Boost") has no `slug` field, and its permalink ends in no usable slug',
    );
  });
});
