import { describe, expect, test } from 'vitest';
import { normaliseProducts } from '../../../generator/normalise/index.js';
import { mapNativeProduct } from '../../../generator/normalise/native.js';
import type { MapContext, MapOutcome, NormalisedProduct } from '../../../generator/normalise/types.js';

const context: MapContext = {
  siteUrl: 'https://shop.pomona.example',
  currency: 'USD',
  comingSoonTag: 'coming-soon',
};

function nativeProduct(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Citrus Sunrise',
    flavor: 'Orange, grapefruit & lime',
    slug: 'citrus-sunrise',
    url: 'https://shop.pomona.example/products/citrus-sunrise',
    description: 'Bright and tart.',
    packaging: '6 × 12 fl oz (355 mL) glass bottles',
    ingredients: ['orange', 'grapefruit', 'lime'],
    nutrition: { calories: 120, serving: '12 fl oz' },
    benefits: ['Vitamin C'],
    certifications: ['USDA Organic'],
    price: '42.00',
    currency: 'USD',
    availability: 'in_stock',
    shipping: 'Ships cold.',
    purchase_url: 'https://shop.pomona.example/products/citrus-sunrise',
    ...overrides,
  };
}

function mapped(outcome: MapOutcome): NormalisedProduct {
  if (!outcome.ok) throw new Error(`expected a product, got: ${outcome.rejected.reason}`);
  return outcome.product;
}

describe('mapNativeProduct', () => {
  test('when a product is in the spec shape then it is kept as it is', () => {
    const product = mapped(mapNativeProduct(nativeProduct(), context));
    expect(product.record).toEqual({
      ...nativeProduct(),
      id: 'citrus-sunrise',
      tags: [],
      images: [],
      options: [],
      variants: [
        {
          id: 'citrus-sunrise',
          title: 'Citrus Sunrise',
          options: [],
          price: '42.00',
          availability: 'in_stock',
          requires_shipping: true,
        },
      ],
      requires_shipping: true,
    });
    expect(product.sourceId).toBe('citrus-sunrise');
  });

  test('when optional fields are missing then nullable ones are null and links default to the product page', () => {
    const product = mapped(
      mapNativeProduct({ name: 'Plain', slug: 'plain', price: 3, availability: 'out_of_stock' }, context),
    );
    expect(product.record).toEqual({
      name: 'Plain',
      slug: 'plain',
      url: 'https://shop.pomona.example/products/plain',
      description: null,
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      price: '3.00',
      currency: 'USD',
      availability: 'out_of_stock',
      purchase_url: 'https://shop.pomona.example/products/plain',
      id: 'plain',
      tags: [],
      images: [],
      options: [],
      variants: [
        {
          id: 'plain',
          title: 'Plain',
          options: [],
          price: '3.00',
          availability: 'out_of_stock',
          requires_shipping: true,
        },
      ],
      requires_shipping: true,
    });
  });

  test('when the description is HTML then it becomes text, and plain text with "<3" is left alone', () => {
    expect(
      mapped(mapNativeProduct(nativeProduct({ description: '<p>A &amp; B</p>' }), context)).record
        .description,
    ).toBe('A & B');
    expect(
      mapped(mapNativeProduct(nativeProduct({ description: 'We <3 limes' }), context)).record.description,
    ).toBe('We <3 limes');
  });

  test('when the product carries extensions then id, image, time and tags are read', () => {
    const product = mapped(
      mapNativeProduct(
        nativeProduct({
          id: 77,
          image_url: 'https://cdn.example/c.jpg',
          updated_at: '2026-02-02',
          tags: ['new'],
        }),
        context,
      ),
    );
    expect(product).toMatchObject({
      sourceId: '77',
      imageUrl: 'https://cdn.example/c.jpg',
      updatedAt: '2026-02-02T00:00:00.000Z',
      record: { id: '77', tags: ['new'], images: [{ url: 'https://cdn.example/c.jpg' }] },
    });
  });

  test.each([
    ['no name', { name: '' }],
    ['a bad slug', { slug: 'Citrus Sunrise' }],
    ['an unreadable price', { price: '$42' }],
    ['a negative number price', { price: -1 }],
    ['another currency', { currency: 'EUR' }],
    ['an unknown availability', { availability: 'preorder' }],
    ['a cart purchase_url', { purchase_url: 'https://shop.pomona.example/cart/123:1' }],
    ['a checkout purchase_url', { purchase_url: 'https://shop.pomona.example/checkouts/abc' }],
    ['an add-to-cart purchase_url', { purchase_url: 'https://shop.pomona.example/?add-to-cart=5' }],
    ['a relative url', { url: '/products/citrus-sunrise' }],
    ['nutrition of the wrong type', { nutrition: ['120 kcal'] }],
  ])('when a product has %s then it is rejected', (_case, overrides) => {
    const outcome = mapNativeProduct(nativeProduct(overrides), context);
    expect(outcome.ok).toBe(false);
  });
});

describe('normaliseProducts', () => {
  test('when the same upstream id appears twice then it is kept once', () => {
    const item = { id: 1, title: 'A', handle: 'a', variants: [{ price: '1.00' }] };
    const result = normaliseProducts([item, item, { ...item, id: 2, handle: 'b' }], 'shopify', context);
    expect(result.products.map((product) => product.sourceId)).toEqual(['1', '2']);
    expect(result.duplicates).toBe(1);
    expect(result.rejected).toEqual([]);
  });

  test('when a product comes back twice then the copy the store updated last is kept, so a sale set during the crawl is not lost', () => {
    const variant = { id: 11, price: '2687.09', compare_at_price: null };
    const stale = {
      id: 1,
      title: 'كابل نحاس',
      handle: 'كابل-نحاس',
      updated_at: '2026-06-01T10:00:00+02:00',
      variants: [variant],
    };
    const onSale = {
      ...stale,
      updated_at: '2026-06-01T10:05:00+02:00',
      variants: [{ ...variant, compare_at_price: '2985.66' }],
    };
    const other = { id: 2, title: 'B', handle: 'b', variants: [{ price: '1.00' }] };
    for (const order of [
      [stale, other, onSale],
      [onSale, other, stale],
    ]) {
      const result = normaliseProducts(order, 'shopify', context);
      expect(result.products.map((product) => product.sourceId)).toEqual(['1', '2']);
      expect(result.products[0]?.record.variants[0]?.compare_at_price).toBe('2985.66');
      expect(result.duplicates).toBe(1);
    }
  });

  test('when an invalid product comes back on a repeated page then it is rejected once', () => {
    const bad = { id: 9, title: 'Broken', handle: 'broken', variants: [{ price: 'free' }] };
    const good = { id: 1, title: 'A', handle: 'a', variants: [{ price: '1.00' }] };
    const result = normaliseProducts([good, bad, good, bad], 'shopify', context);
    expect(result.products.map((product) => product.sourceId)).toEqual(['1']);
    expect(result.rejected.map((rejected) => rejected.id)).toEqual(['9']);
    expect(result.duplicates).toBe(2);
  });

  test('when two different products claim one slug then the later one is rejected and named', () => {
    const first = { id: 1, title: 'A', handle: 'same', variants: [{ price: '1.00' }] };
    const second = { id: 2, title: 'B', handle: 'same', variants: [{ price: '2.00' }] };
    const result = normaliseProducts([first, second], 'shopify', context);
    expect(result.products.map((product) => product.sourceId)).toEqual(['1']);
    expect(result.rejected.map((rejected) => rejected.id)).toEqual(['2']);
  });

  test('when some products are invalid then the rest are mapped and the invalid ones listed', () => {
    const good = nativeProduct();
    const bad = nativeProduct({ slug: 'other', price: 'free' });
    const result = normaliseProducts([good, bad], 'native', context);
    expect(result.products).toHaveLength(1);
    expect(result.rejected).toEqual([expect.objectContaining({ id: 'other', name: 'Citrus Sunrise' })]);
  });

  test('when a product gives variants, options, images and a brand then they are checked and kept, and the summary follows from the variants', () => {
    const product = mapped(
      mapNativeProduct(
        nativeProduct({
          id: 'cs-1',
          brand: 'Pomona',
          category: 'Juice',
          price: undefined,
          availability: undefined,
          images: [{ url: 'https://cdn.example/cs.jpg', alt: 'Bottle', width: 600, height: 900 }],
          options: [{ name: 'Pack', values: ['Single', '6-pack'] }],
          variants: [
            {
              id: 'cs-1-1',
              options: [{ name: 'Pack', value: 'Single' }],
              price: '7.00',
              availability: 'out_of_stock',
            },
            {
              id: 'cs-1-6',
              title: 'Six bottles',
              options: [{ name: 'Pack', value: '6-pack' }],
              price: 38,
              compare_at_price: '42.00',
              availability: 'in_stock',
              sku: 'CS-6',
            },
          ],
        }),
        context,
      ),
    );
    expect(product.record).toMatchObject({
      id: 'cs-1',
      brand: 'Pomona',
      category: 'Juice',
      price: '38.00',
      availability: 'in_stock',
      price_range: { min: '7.00', max: '38.00' },
      images: [{ url: 'https://cdn.example/cs.jpg', alt: 'Bottle', width: 600, height: 900 }],
    });
    expect(
      product.record.variants.map((variant) => [variant.id, variant.title, variant.compare_at_price]),
    ).toEqual([
      ['cs-1-1', 'Single', undefined],
      ['cs-1-6', 'Six bottles', '42.00'],
    ]);
  });

  test('when a product without variants needs no shipping then its one variant and the product say so', () => {
    const { record } = mapped(mapNativeProduct(nativeProduct({ requires_shipping: false }), context));
    expect(record.requires_shipping).toBe(false);
    expect(record.variants.map((variant) => variant.requires_shipping)).toEqual([false]);
  });

  test.each([
    [
      'a variant naming an option the product lacks',
      {
        variants: [
          { id: 'v', options: [{ name: 'Size', value: 'L' }], price: '1', availability: 'in_stock' },
        ],
      },
      'variants.0.options',
    ],
    [
      'a price its variants contradict',
      { price: '1.00', variants: [{ id: 'v', price: '2', availability: 'in_stock' }] },
      'but its variants make it 2.00',
    ],
    [
      'two variants with one id',
      {
        price: undefined,
        variants: [
          { id: 'v', price: '2', availability: 'in_stock' },
          { id: 'v', price: '3', availability: 'in_stock' },
        ],
      },
      'variants.1.id v twice',
    ],
    ['an image URL that is not absolute', { images: [{ url: '/img.jpg' }] }, 'images.0.url'],
    ['no price and no variants', { price: undefined }, 'no `price` field'],
    ['no slug', { slug: undefined }, 'no `slug` field'],
  ])('when a product has %s then it is rejected, naming the field', (_case, overrides, reason) => {
    const outcome = mapNativeProduct(nativeProduct(overrides), context);
    expect(outcome.ok ? undefined : outcome.rejected.reason).toContain(reason);
  });
});
