/**
 * Each adapter mapping proven through the whole build (`build({ write: false })`) on
 * fixtures in the shapes of real store payloads (test/fixtures/upstream/*-store-shapes.json):
 * what reaches the catalog is what the store sells.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { FIXTURES_DIR, makeWorkspace } from '../pipeline/helpers.js';
import { buildFromFixture, cleanUpFixtureBuild } from './build-from-fixture.js';

afterEach(() => cleanUpFixtureBuild());
const buildFrom = buildFromFixture;

describe('Shopify products.json in real shapes', () => {
  it('when a sweatshirt has sizes XS to 2XL with only XS and 2XL left then each variant says so', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const { record } = find('loopback-crew-sweatshirt');
    expect(record.options).toEqual([{ name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL', '2XL'] }]);
    expect(record.variants.map((variant) => [variant.title, variant.availability])).toEqual([
      ['XS', 'in_stock'],
      ['S', 'out_of_stock'],
      ['M', 'out_of_stock'],
      ['L', 'out_of_stock'],
      ['XL', 'out_of_stock'],
      ['2XL', 'in_stock'],
    ]);
    expect(record.variants[0]).toEqual({
      id: '77123456000010',
      title: 'XS',
      url: 'https://fixture-juice.example/products/loopback-crew-sweatshirt?variant=77123456000010',
      options: [{ name: 'Size', value: 'XS' }],
      sku: 'LCS-OAT-XS',
      gtin: '008500001000',
      price: '88.00',
      availability: 'in_stock',
      requires_shipping: true,
    });
    expect(record.availability).toBe('in_stock');
    expect(record.brand).toBe('Northside Goods');
    expect(record.category).toBe('Sweatshirts');
    expect(record.images).toEqual([
      {
        url: 'https://cdn.shopify.com/s/files/1/0601/files/crew-oat-front.jpg?v=1709391600',
        alt: 'Oat crew sweatshirt, front',
        width: 1200,
        height: 1500,
      },
      {
        url: 'https://cdn.shopify.com/s/files/1/0601/files/crew-oat-back.jpg?v=1709391600',
        width: 1200,
        height: 1500,
      },
    ]);
  });

  it('when a sweatshirt has a size chart then the text reads row by row and the Markdown is a table', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const product = find('loopback-crew-sweatshirt');
    expect(product.record.description).toContain(
      'SIZE | XS | S | M | L | XL | 2XL\nSLEEVE LENGTH | 8 | 8 ½ | 9 | 9 ½ | 10 | 10 ½',
    );
    expect(product.descriptionMarkdown).toContain('| SLEEVE LENGTH | 8 | 8 ½ | 9 | 9 ½ | 10 | 10 ½ |');
    expect(product.descriptionMarkdown).toContain('- 100% cotton\n- Made in Portugal');
  });

  it('when a keychain sells at $6, $13 and $35 then the price is the lowest and the range is published', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const { record } = find('brass-keychain');
    expect(record.price).toBe('6.00');
    expect(record.price_range).toEqual({ min: '6.00', max: '35.00' });
    expect(record.variants.map((variant) => variant.price)).toEqual(['6.00', '13.00', '35.00']);
    expect(record.variants[2]?.image).toBe(
      'https://cdn.shopify.com/s/files/1/0601/files/key-gift.jpg?v=1709391600',
    );
    expect(record.brand).toBe('Luma');
  });

  it('when a furniture set is sold out in red and pink then those variants are out of stock and the sale price is per variant', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const { record } = find('bistro-set');
    expect(
      record.variants.map((variant) => [variant.title, variant.availability, variant.compare_at_price]),
    ).toEqual([
      ['Natural', 'in_stock', '3499.00'],
      ['Red', 'out_of_stock', '3499.00'],
      ['Pink', 'out_of_stock', '3499.00'],
      ['Black', 'in_stock', undefined],
    ]);
    expect(record.price).toBe('2985.66');
    // Not every variant is on sale, so the product does not say "on sale".
    expect(record.compare_at_price).toBeUndefined();
    expect(record.brand).toBe('Shall');
  });

  it('when a cable is sold per 100 m roll only in an option then packaging carries the unit', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    expect(find('copper-cable-2-5').record.packaging).toBe('100 m roll');
  });

  it('when an eBook needs no shipping then it is digital, gets no shipping sentence, and its store vendor is empty so the merchant is the brand', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const ebook = find('home-electrician-ebook');
    expect(ebook.record.requires_shipping).toBe(false);
    expect(ebook.record.variants[0]?.requires_shipping).toBe(false);
    expect(ebook.record.shipping).toBeUndefined();
    expect(ebook.record.brand).toBe('Fixture Juice');
    expect(ebook.record.options).toEqual([]);
    expect(ebook.record.variants[0]?.title).toBe('The Home Electrician (PDF eBook)');
    expect(ebook.record.compare_at_price).toBe('24.99');
    // Its body was HTML encoded twice: decoded once, the link's text keeps its URL.
    expect(ebook.record.description).toBe(
      'A 240-page guide. Download the sample chapter here (https://books.example/sample.pdf).',
    );
    expect(find('cable-stripper').record.shipping).toBe('Ships cold, Monday to Wednesday.');
  });

  it('when the merchant has a shipping policy then the eBook has no shipping line in the feed and the bundle is valid', async () => {
    const { result } = await buildFrom('shopify-store-shapes.json', 'shopify', (config) => {
      const { shipping: _legacy, ...rest } = config;
      return { ...rest, shipping_policy: { countries: ['US'], price: '5.00' } };
    });
    const feed = result.artifacts.find((artifact) => artifact.path === 'feed.xml')?.body.toString() ?? '';
    const itemOf = (id: string) =>
      feed.split('<item>').find((item) => item.includes(`<g:id>${id}</g:id>`)) ?? '';
    // One item per variant: g:id is the store's variant id.
    // On sale: the regular price, then what the customer pays.
    expect(itemOf('77123456000051')).toContain('<g:price>24.99 USD</g:price>');
    expect(itemOf('77123456000051')).toContain('<g:sale_price>19.99 USD</g:sale_price>');
    expect(itemOf('77123456000051')).not.toContain('<g:shipping>');
    expect(itemOf('77123456000061')).toContain('<g:shipping>');
  });

  it('when a "was" price is lower than the price then no sale is published, and a plain-text body keeps its lines', async () => {
    const { find } = await buildFrom('shopify-store-shapes.json', 'shopify');
    const { record } = find('cable-stripper');
    expect(record.variants[0]?.compare_at_price).toBeUndefined();
    expect(record.compare_at_price).toBeUndefined();
    expect(record.description).toBe('Strips 0.5–6 mm² cable.\nSpring loaded.\n\nLifetime warranty.');
    expect(record.tags).toEqual(['tools', 'hand tools']);
  });

  it('when brand_source is "merchant" then every product carries the merchant brand', async () => {
    const { result } = await buildFrom('shopify-store-shapes.json', 'shopify', (config) => ({
      ...config,
      merchant: { ...(config.merchant as object), brand: 'Fixture Shop' },
      upstream: { ...(config.upstream as object), brand_source: 'merchant' },
    }));
    expect(new Set([...recordsOf(result.plan.products)].map((product) => product.brand))).toEqual(
      new Set(['Fixture Shop']),
    );
  });
});

describe('WooCommerce Store API in real shapes', () => {
  it('when a simple product is on sale then its price is the sale price and the regular price is the "was" price', async () => {
    const { find } = await buildFrom('woocommerce-store-shapes.json', 'woocommerce');
    const { record } = find('cordless-drill-18v');
    expect(record).toMatchObject({
      id: '201',
      price: '129.00',
      compare_at_price: '159.00',
      brand: 'Shall',
      category: 'Power tools',
      tags: ['Cordless'],
      images: [
        { url: 'https://tools.shop.example/wp-content/uploads/2026/03/drill.jpg', alt: 'Cordless drill' },
        { url: 'https://tools.shop.example/wp-content/uploads/2026/03/drill-side.jpg' },
      ],
    });
    expect(record.variants).toEqual([
      {
        id: '201',
        title: 'Cordless Drill 18V',
        options: [],
        sku: 'DRL-18',
        price: '129.00',
        compare_at_price: '159.00',
        availability: 'in_stock',
        requires_shipping: true,
      },
    ]);
  });

  it('when a variable product has a price range but no price per variation then it keeps one variant at its lowest price and the stated range', async () => {
    const { find } = await buildFrom('woocommerce-store-shapes.json', 'woocommerce');
    const { record } = find('work-gloves');
    expect(record.price).toBe('9.00');
    expect(record.price_range).toEqual({ min: '9.00', max: '14.00' });
    expect(record.options).toEqual([{ name: 'Size', values: ['Medium', 'Large'] }]);
    expect(record.variants).toHaveLength(1);
  });

  it('when a variable product has one price then its variations become variants named by their terms', async () => {
    const { find } = await buildFrom('woocommerce-store-shapes.json', 'woocommerce');
    const { record } = find('safety-glasses');
    expect(
      record.variants.map((variant) => [variant.id, variant.title, variant.options, variant.price]),
    ).toEqual([
      ['2031', 'Clear', [{ name: 'Tint', value: 'Clear' }], '6.50'],
      ['2032', 'Smoke', [{ name: 'Tint', value: 'Smoke' }], '6.50'],
    ]);
  });

  it('when a product is on backorder then it is in stock', async () => {
    const { find } = await buildFrom('woocommerce-store-shapes.json', 'woocommerce');
    expect(find('socket-set-40').record.availability).toBe('in_stock');
    expect(find('hex-key').record.availability).toBe('out_of_stock');
  });

  it('when a grouped product has children in the crawl then it takes their availability and price range', async () => {
    const { find, result } = await buildFrom('woocommerce-store-shapes.json', 'woocommerce');
    const { record } = find('workshop-starter-kit');
    expect(record.availability).toBe('in_stock');
    expect(record.price).toBe('49.00');
    expect(record.price_range).toEqual({ min: '49.00', max: '129.00' });
    // Its children are products of their own: their variant ids stay theirs.
    expect(record.variants).toEqual([
      {
        id: '205',
        title: 'Workshop Starter Kit',
        options: [],
        price: '49.00',
        availability: 'in_stock',
        requires_shipping: true,
      },
    ]);
    const ids = [...result.plan.products].flatMap((product) =>
      product.record.variants.map((variant) => variant.id),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when an older Store API answer has no slug field then the slug comes from the permalink', async () => {
    const { result } = await buildFrom('woocommerce-no-slug.json', 'woocommerce');
    expect([...recordsOf(result.plan.products)].map((product) => product.slug)).toEqual([
      'cordless-drill-18v',
      'work-gloves',
    ]);
  });

  it('when no product has a slug or a usable permalink then the build refuses an empty catalog and names the field', async () => {
    const items = JSON.parse(
      await readFile(join(FIXTURES_DIR, 'upstream', 'woocommerce-no-slug.json'), 'utf8'),
    ) as Record<string, unknown>[];
    const workspace = await makeWorkspace();
    const file = join(workspace.dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify(items.map((item) => ({ ...item, permalink: 'https://tools.shop.example/' }))),
    );
    const error = await buildFrom(file, 'woocommerce').catch((e: unknown) => e);
    await workspace.cleanup();
    expect(isCatalogError(error, 'CATALOG_EMPTY')).toBe(true);
    expect((error as Error).message).toContain('has no `slug` field');
    expect((error as Error).message).not.toContain('unusable slug ""');
  });
});
