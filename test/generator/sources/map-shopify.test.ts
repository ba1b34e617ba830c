import { describe, expect, test } from 'vitest';
import { mapShopifyProduct } from '../../../generator/normalise/shopify.js';
import type { MapContext, MapOutcome, NormalisedProduct } from '../../../generator/normalise/types.js';

const context: MapContext = {
  siteUrl: 'https://shop.pomona.example',
  currency: 'USD',
  comingSoonTag: 'coming-soon',
};

function shopifyProduct(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 42,
    title: 'Green Glow',
    handle: 'green-glow',
    body_html: '<p>Kale &amp; apple.</p>',
    updated_at: '2026-03-01T10:00:00-05:00',
    tags: ['organic'],
    variants: [
      { id: 1, title: '6-pack', price: '54.00', available: true },
      { id: 2, title: '12 fl oz', price: '9.50', available: true },
    ],
    images: [{ src: '//cdn.shopify.com/s/files/green-glow.jpg' }],
    ...overrides,
  };
}

function mapped(outcome: MapOutcome): NormalisedProduct {
  if (!outcome.ok) throw new Error(`expected a product, got: ${outcome.rejected.reason}`);
  return outcome.product;
}

function rejectedId(outcome: MapOutcome): string | undefined {
  return outcome.ok ? undefined : outcome.rejected.id;
}

describe('mapShopifyProduct', () => {
  test('when a product is complete then every field is mapped', () => {
    const product = mapped(mapShopifyProduct(shopifyProduct(), context));
    expect(product).toEqual({
      sourceId: '42',
      record: {
        name: 'Green Glow',
        slug: 'green-glow',
        url: 'https://shop.pomona.example/products/green-glow',
        description: 'Kale & apple.',
        ingredients: null,
        nutrition: null,
        benefits: null,
        certifications: null,
        price: '9.50',
        currency: 'USD',
        availability: 'in_stock',
        purchase_url: 'https://shop.pomona.example/products/green-glow',
        id: '42',
        tags: ['organic'],
        images: [{ url: 'https://cdn.shopify.com/s/files/green-glow.jpg' }],
        options: [],
        variants: [
          {
            id: '1',
            title: '6-pack',
            url: 'https://shop.pomona.example/products/green-glow?variant=1',
            options: [],
            price: '54.00',
            availability: 'in_stock',
            requires_shipping: true,
          },
          {
            id: '2',
            title: '12 fl oz',
            url: 'https://shop.pomona.example/products/green-glow?variant=2',
            options: [],
            price: '9.50',
            availability: 'in_stock',
            requires_shipping: true,
          },
        ],
        price_range: { min: '9.50', max: '54.00' },
        requires_shipping: true,
      },
      imageUrl: 'https://cdn.shopify.com/s/files/green-glow.jpg',
      updatedAt: '2026-03-01T15:00:00.000Z',
    });
  });

  test('when the cheapest variant is sold out then the price is the lowest available one', () => {
    const variants = [
      { id: 1, price: '9.50', available: false },
      { id: 2, price: '27.00', available: true },
      { id: 3, price: '54.00', available: true },
    ];
    const product = mapped(mapShopifyProduct(shopifyProduct({ variants }), context));
    expect(product.record.price).toBe('27.00');
    expect(product.record.availability).toBe('in_stock');
  });

  test('when no variant is available then it is out_of_stock at the lowest price of all', () => {
    const variants = [
      { id: 1, price: '54.00', available: false },
      { id: 2, price: '9.50', available: false },
    ];
    const product = mapped(mapShopifyProduct(shopifyProduct({ variants }), context));
    expect(product.record.availability).toBe('out_of_stock');
    expect(product.record.price).toBe('9.50');
  });

  test('when tagged with the coming-soon tag, in any case, then it is coming_soon even if sold out', () => {
    const variants = [{ id: 1, price: '9.50', available: false }];
    const product = mapped(mapShopifyProduct(shopifyProduct({ tags: ['Coming-Soon'], variants }), context));
    expect(product.record.availability).toBe('coming_soon');
  });

  test('when the coming-soon tag is configured then that tag decides', () => {
    const custom = { ...context, comingSoonTag: 'preorder' };
    expect(
      mapped(mapShopifyProduct(shopifyProduct({ tags: 'organic, preorder' }), custom)).record.availability,
    ).toBe('coming_soon');
    expect(
      mapped(mapShopifyProduct(shopifyProduct({ tags: ['coming-soon'] }), custom)).record.availability,
    ).toBe('in_stock');
  });

  test('when the price is "1234.50" then it stays "1234.50", and "0.00" is a valid price', () => {
    const one = shopifyProduct({ variants: [{ id: 1, price: '1234.50', available: true }] });
    expect(mapped(mapShopifyProduct(one, context)).record.price).toBe('1234.50');
    const free = shopifyProduct({ variants: [{ id: 1, price: '0.00', available: true }] });
    expect(mapped(mapShopifyProduct(free, context)).record.price).toBe('0.00');
  });

  test('when the currency has no minor digits then the price has none', () => {
    const yen = { ...context, currency: 'JPY' };
    const product = shopifyProduct({ variants: [{ id: 1, price: '1200.00', available: true }] });
    expect(mapped(mapShopifyProduct(product, yen)).record.price).toBe('1200');
  });

  test('when the title has XML/HTML special characters, emoji and non-Latin text then they are kept verbatim', () => {
    const title = 'Piña & Mango "Sunrise" <Limited> 🍍 抹茶 ]]>';
    const product = mapped(mapShopifyProduct(shopifyProduct({ title, handle: 'piña-抹茶' }), context));
    expect(product.record.name).toBe(title);
    expect(product.record.slug).toBe('piña-抹茶');
    expect(product.record.url).toBe('https://shop.pomona.example/products/pi%C3%B1a-%E6%8A%B9%E8%8C%B6');
  });

  test('when optional fields are missing then the product is still mapped without them', () => {
    const product = mapped(
      mapShopifyProduct({ id: '9', title: 'Plain', handle: 'plain', variants: [{ price: '3.00' }] }, context),
    );
    expect(product.record.description).toBeNull();
    expect(product.record.availability).toBe('in_stock');
    expect(product.imageUrl).toBeUndefined();
    expect(product.updatedAt).toBeUndefined();
    expect(product.record.tags).toEqual([]);
    expect(product.record.variants).toEqual([
      {
        id: '9',
        title: 'Plain',
        options: [],
        price: '3.00',
        availability: 'in_stock',
        requires_shipping: true,
      },
    ]);
  });

  test('when an image is malformed then the image is dropped, not the product', () => {
    const product = mapped(mapShopifyProduct(shopifyProduct({ images: [{ alt: 'x' }, 'junk'] }), context));
    expect(product.imageUrl).toBeUndefined();
  });

  test.each([
    ['no title', { title: '  ' }],
    ['no handle', { handle: undefined }],
    ['a handle with a slash', { handle: 'green/glow' }],
    ['an uppercase handle', { handle: 'Green-Glow' }],
    ['no variants', { variants: [] }],
    ['a variant with an unreadable price', { variants: [{ id: 1, price: '9,50', available: true }] }],
    ['a negative price', { variants: [{ id: 1, price: '-1.00', available: true }] }],
    ['variants of the wrong type', { variants: 'none' }],
  ])('when a product has %s then it is rejected and named', (_case, overrides) => {
    const outcome = mapShopifyProduct(shopifyProduct(overrides), context);
    expect(rejectedId(outcome)).toBe('42');
    if (!outcome.ok) expect(outcome.rejected.reason).toContain('42');
  });

  test('when the item is not an object then it is rejected', () => {
    expect(mapShopifyProduct('nope', context).ok).toBe(false);
    expect(mapShopifyProduct(null, context).ok).toBe(false);
  });

  test('when the product comes from the Admin API then stock, variant images and barcodes are read from its fields', () => {
    const product = mapped(
      mapShopifyProduct(
        shopifyProduct({
          tags: 'organic, cold-pressed',
          options: [{ id: 1, product_id: 42, name: 'Size', position: 1, values: ['12 fl oz', '6-pack'] }],
          variants: [
            {
              id: 1,
              title: '12 fl oz',
              option1: '12 fl oz',
              price: '9.50',
              barcode: '0850000123456',
              inventory_management: 'shopify',
              inventory_policy: 'deny',
              inventory_quantity: 0,
              image_id: 900,
            },
            {
              id: 2,
              title: '6-pack',
              option1: '6-pack',
              price: '54.00',
              inventory_management: 'shopify',
              inventory_policy: 'continue',
              inventory_quantity: 0,
              image_id: null,
            },
          ],
          images: [
            {
              id: 899,
              src: 'https://cdn.shopify.com/s/files/front.jpg',
              alt: 'Front',
              width: 800,
              height: 800,
            },
            {
              id: 900,
              src: 'https://cdn.shopify.com/s/files/single.jpg',
              alt: null,
              width: 800,
              height: 800,
            },
          ],
        }),
        context,
      ),
    );
    expect(product.record.tags).toEqual(['organic', 'cold-pressed']);
    expect(
      product.record.variants.map((variant) => [variant.availability, variant.image, variant.gtin]),
    ).toEqual([
      ['out_of_stock', 'https://cdn.shopify.com/s/files/single.jpg', '0850000123456'],
      // A variant that may be oversold is still for sale at 0.
      ['in_stock', undefined, undefined],
    ]);
    expect(product.record.price).toBe('54.00');
    expect(product.record.images[0]).toEqual({
      url: 'https://cdn.shopify.com/s/files/front.jpg',
      alt: 'Front',
      width: 800,
      height: 800,
    });
  });
});
