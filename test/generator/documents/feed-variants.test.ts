/**
 * The feed from the record, one item per variant: a hoodie in Size × Colour with partial
 * stock and one variant on sale, a PDF guide that ships nothing, rope sold by the roll.
 * The feed is parsed afresh with fast-xml-parser and each item compared with the record
 * it came from, attribute by attribute, as Google's product data specification names them.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { emitFeed, FEED_FILE } from '../../../generator/emit/feed.js';
import { isValidGtin, optionAttributes } from '../../../generator/emit/feed-attributes.js';
import { checkFeed } from '../../../generator/emit/feed-check.js';
import { screenFeedProducts } from '../../../generator/emit/feed-rules.js';
import type { ProductRecord } from '../../../generator/model.js';
import type { BuildPlan } from '../../../generator/plan.js';
import { makeVariedPlan } from '../../helpers/sample-plan.js';

type Item = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['item', 'g:shipping', 'g:additional_image_link'].includes(name),
});

function itemsOf(plan: BuildPlan): Item[] {
  const [artifact] = emitFeed(plan);
  if (artifact === undefined) throw new Error('no feed');
  const tree = parser.parse(artifact.body) as { rss: { channel: { item: Item[] } } };
  return tree.rss.channel.item;
}

function recordOf(plan: BuildPlan, slug: string): ProductRecord {
  const found = [...plan.products].find((product) => product.record.slug === slug);
  if (found === undefined) throw new Error(`no ${slug}`);
  return found.record;
}

function itemById(items: Item[], id: string): Item {
  const found = items.find((item) => item['g:id'] === id);
  if (found === undefined) throw new Error(`no item ${id}`);
  return found;
}

describe('the feed, one item per variant', () => {
  const plan = makeVariedPlan();
  const items = itemsOf(plan);

  it('has one item per variant, its g:id the variant id, grouped by the product id only when there is a choice', () => {
    const expected = [...plan.products].flatMap((product) =>
      product.record.variants.map((variant) => variant.id),
    );
    expect(items.map((item) => item['g:id'])).toEqual(expected);
    for (const item of items) {
      const id = String(item['g:id']);
      const record = [...plan.products].find((p) => p.record.variants.some((v) => v.id === id))?.record;
      expect(item['g:item_group_id']).toBe(
        record !== undefined && record.variants.length > 1 ? record.id : undefined,
      );
    }
  });

  it('states the regular price as g:price and the price on sale as g:sale_price', () => {
    expect(itemById(items, '7001-3')).toMatchObject({ 'g:price': '59.00 USD', 'g:sale_price': '49.00 USD' });
    expect(itemById(items, '7001-1')['g:price']).toBe('45.00 USD');
    expect(itemById(items, '7001-1')['g:sale_price']).toBeUndefined();
    expect(itemById(items, '7002')).toMatchObject({ 'g:price': '15.00 USD', 'g:sale_price': '12.00 USD' });
  });

  it('states each variant availability, a sold-out size stays out of stock beside one in stock', () => {
    for (const variant of recordOf(plan, 'trail-hoodie').variants) {
      expect(itemById(items, variant.id)['g:availability']).toBe(variant.availability);
    }
    // coming_soon has no date for Google's preorder: out_of_stock, as the documented table says.
    expect(itemById(items, '7003-100')['g:availability']).toBe('out_of_stock');
  });

  it("links the variant's own page when it has one, else the product page", () => {
    const hoodie = recordOf(plan, 'trail-hoodie');
    expect(itemById(items, '7001-1')['g:link']).toBe(`${hoodie.url}?variant=7001-1`);
    expect(itemById(items, '7001-2')['g:link']).toBe(hoodie.url);
  });

  it("shows the variant's own image, else the product's first, and the others as additional images", () => {
    const hoodie = recordOf(plan, 'trail-hoodie');
    const [red, navy] = hoodie.images.map((image) => image.url);
    expect(itemById(items, '7001-2')['g:image_link']).toBe(navy);
    expect(itemById(items, '7001-2')['g:additional_image_link']).toEqual([red]);
    expect(itemById(items, '7001-1')['g:image_link']).toBe(red);
    expect(itemById(items, '7001-1')['g:additional_image_link']).toEqual([navy]);
    expect(itemById(items, '7002')['g:additional_image_link']).toBeUndefined();
  });

  it("names the record's brand, else the merchant's, and the GTIN and MPN the store knows", () => {
    expect(itemById(items, '7001-1')).toMatchObject({
      'g:brand': 'Northface & Co',
      'g:gtin': '0012345678905',
      'g:mpn': 'HD-XS-R',
    });
    expect(itemById(items, '7001-1')['g:identifier_exists']).toBeUndefined();
    expect(itemById(items, '7002')).toMatchObject({
      'g:brand': plan.config.merchant.brand,
      'g:identifier_exists': 'no',
    });
    expect(itemById(items, '7003-50')).toMatchObject({ 'g:brand': 'Ridgeline', 'g:mpn': 'RP-50' });
  });

  it('reads g:size and g:color from the options, whatever their case or spelling (Colour)', () => {
    expect(itemById(items, '7001-2')).toMatchObject({ 'g:size': 'XS', 'g:color': 'Navy' });
    expect(itemById(items, '7003-50')['g:size']).toBeUndefined();
    expect(
      optionAttributes({
        id: 'v',
        title: 'v',
        options: [
          { name: 'COLOR', value: 'Blue' },
          { name: 'Fabric', value: 'Wool' },
          { name: 'Print', value: 'Plaid' },
        ],
        price: '1.00',
        availability: 'in_stock',
        requires_shipping: true,
      }),
    ).toEqual({ 'g:color': 'Blue', 'g:material': 'Wool', 'g:pattern': 'Plaid' });
  });

  it('gives the digital product no g:shipping while the others carry the policy', () => {
    expect(itemById(items, '7002')['g:shipping']).toBeUndefined();
    expect(itemById(items, '7001-1')['g:shipping']).toEqual([
      { 'g:country': 'US', 'g:price': '5.00 USD' },
      { 'g:country': 'CA', 'g:price': '5.00 USD' },
    ]);
  });

  it('titles a variant by the product and its options', () => {
    expect(itemById(items, '7001-3')['g:title']).toBe('Trail Hoodie – L / Red');
    expect(itemById(items, '7002')['g:title']).toBe('Alpine Field Guide (PDF)');
  });

  it('passes its own checker', () => {
    const [artifact] = emitFeed(plan);
    expect(checkFeed(new Map([[FEED_FILE, artifact?.body ?? '']]))).toEqual([]);
  });

  it('when every variant breaks a rule the product is named once; when one does, that variant is named', () => {
    const pictureless = [...plan.products].map((product) =>
      product.record.slug !== 'static-rope'
        ? product
        : { ...product, record: { ...product.record, images: [] } },
    );
    const { excluded, items: offers } = screenFeedProducts(pictureless);
    // Every variant breaks the same rule: the product is named once.
    expect(excluded.map(({ product, variant, rule }) => [product, variant, rule])).toEqual([
      ['static-rope', undefined, 'image_link'],
    ]);
    expect(offers.map((offer) => offer.variant.id)).not.toContain('7003-50');
    const oneFree = [...plan.products].map((product) =>
      product.record.slug !== 'trail-hoodie'
        ? product
        : {
            ...product,
            record: {
              ...product.record,
              variants: product.record.variants.map((v) => (v.id === '7001-4' ? { ...v, price: '0.00' } : v)),
            },
          },
    );
    expect(screenFeedProducts(oneFree).excluded).toEqual([
      expect.objectContaining({ product: 'trail-hoodie', variant: '7001-4', rule: 'price' }),
    ]);
  });

  it('refuses a sale price that is not lower than the price', () => {
    const [artifact] = emitFeed(plan);
    const body = (artifact?.body ?? '').replace('<g:sale_price>49.00 USD', '<g:sale_price>69.00 USD');
    expect(checkFeed(new Map([[FEED_FILE, body]]))).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('g:sale_price is not lower than g:price') }),
    );
  });
});

describe('isValidGtin', () => {
  it('accepts GTIN-8, 12, 13 and 14 with their check digit and refuses anything else', () => {
    expect(['96385074', '036000291452', '4006381333931', '00012345678905'].map(isValidGtin)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['4006381333932', 'N/A', '', '12345', '40063813339311'].map(isValidGtin)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
