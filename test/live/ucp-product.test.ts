/**
 * The record → UCP product mapping done at build time: ids, handle and url from the
 * record, prices in ISO 4217 minor units (zero-decimal currencies included), the sale
 * price as `list_price`, availability with its status, media from images, barcodes.
 */
import { describe, expect, it } from 'vitest';
import { toUcpProduct, ucpOffersOf } from '../../live/ucp-product.js';
import { buildProductRecord } from '../../record/build-record.js';
import { ucpErrors } from './ucp-schemas.js';
import { makeVariedRecords } from './varied-catalog.js';

function record(currency: string, prices: [string, string]) {
  const url = 'https://shop.example/products/yuzu';
  return buildProductRecord({
    name: 'Yuzu tonic',
    slug: 'yuzu',
    url,
    description: null,
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    currency,
    purchase_url: url,
    id: 'gid-1',
    tags: [],
    images: [{ url: 'https://cdn.example/yuzu.jpg', alt: 'A bottle', width: 800, height: 0 }],
    options: [{ name: 'Size', values: ['S', 'L'] }],
    variants: [
      {
        id: 'v-s',
        title: 'S',
        options: [{ name: 'Size', value: 'S' }],
        gtin: '4006381333931',
        price: prices[0],
        compare_at_price: prices[1],
        availability: 'coming_soon',
        requires_shipping: true,
      },
      {
        id: 'v-l',
        title: 'L',
        options: [{ name: 'Size', value: 'L' }],
        price: prices[1],
        availability: 'in_stock',
        requires_shipping: true,
      },
    ],
  });
}

describe('toUcpProduct', () => {
  it('publishes USD in cents and JPY in yen, with the range over all variants', () => {
    expect(toUcpProduct(record('USD', ['29.00', '31.50'])).price_range).toEqual({
      min: { amount: 2900, currency: 'USD' },
      max: { amount: 3150, currency: 'USD' },
    });
    expect(toUcpProduct(record('JPY', ['1500', '1800'])).variants.map((variant) => variant.price)).toEqual([
      { amount: 1500, currency: 'JPY' },
      { amount: 1800, currency: 'JPY' },
    ]);
  });

  it('keeps the store ids, the slug as handle, the catalog url, and the record facts as UCP fields', () => {
    const product = toUcpProduct(record('USD', ['29.00', '31.50']));
    expect(product).toMatchObject({ id: 'gid-1', handle: 'yuzu', url: 'https://shop.example/products/yuzu' });
    expect(product.description).toEqual({ plain: '' });
    expect(product.media).toEqual([
      { type: 'image', url: 'https://cdn.example/yuzu.jpg', alt_text: 'A bottle', width: 800 },
    ]);
    const [small] = product.variants;
    expect(small).toMatchObject({
      id: 'v-s',
      list_price: { amount: 3150, currency: 'USD' },
      availability: { available: false, status: 'coming_soon' },
      barcodes: [{ type: 'GTIN', value: '4006381333931' }],
      options: [{ name: 'Size', label: 'S' }],
    });
    expect(
      ucpErrors('catalog_search.json#/$defs/search_response', {
        ucp: { version: '2026-04-08' },
        products: [product],
      }),
    ).toEqual([]);
  });
});

describe('ucpOffersOf', () => {
  it('gives each variant the amount and availability toUcpProduct gives it', () => {
    const records = [
      ...makeVariedRecords(500),
      record('USD', ['29.00', '31.50']),
      record('JPY', ['1500', '1800']),
      record('BHD', ['1.250', '2.5']),
    ];
    for (const product of records) {
      expect(ucpOffersOf(product)).toEqual(
        toUcpProduct(product).variants.map((variant) => ({
          amount: variant.price.amount,
          available: variant.availability.available,
        })),
      );
    }
  });
});
