import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { emitFeed, FEED_FILE } from '../../../generator/emit/feed.js';
import { checkFeed } from '../../../generator/emit/feed-check.js';
import { screenFeedProducts } from '../../../generator/emit/feed-rules.js';
import { isCatalogError } from '../../../generator/errors.js';
import type { BuildPlan } from '../../../generator/plan.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  makeSamplePlanWithFirstProduct,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';

function feedReadyPlan(config = makeSampleConfig()): BuildPlan {
  return makeSamplePlan({ config, products: makeFeedReadyProducts(config) });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  htmlEntities: false,
  isArray: (name) => name === 'item' || name === 'g:shipping' || name === 'g:free_shipping_threshold',
});

type Item = Record<string, unknown>;
interface FeedTree {
  rss: { '@_version': string; '@_xmlns:g': string; channel: { link: string; title: string; item: Item[] } };
}

function feedOf(plan = feedReadyPlan()): { body: string; items: Item[]; tree: FeedTree } {
  const [artifact] = emitFeed(plan);
  if (artifact === undefined) throw new Error('no feed artifact');
  expect(XMLValidator.validate(artifact.body)).toBe(true);
  const tree = parser.parse(artifact.body) as FeedTree;
  return { body: artifact.body, items: tree.rss.channel.item as Item[], tree };
}

describe('emitFeed', () => {
  it('publishes one RSS 2.0 item per product with the g: namespace bound', () => {
    const plan = feedReadyPlan();
    const { tree, items } = feedOf(plan);
    expect(tree.rss['@_version']).toBe('2.0');
    expect(tree.rss['@_xmlns:g']).toBe('http://base.google.com/ns/1.0');
    expect(tree.rss.channel.link).toBe(plan.config.site_url);
    expect(tree.rss.channel.title).toContain(plan.config.merchant.name);
    expect(items.map((item) => item['g:id'])).toEqual([...plan.products].map((p) => p.sourceId));
    expect(items.map((item) => item['g:link'])).toEqual([...plan.products].map((p) => p.record.url));
  });

  it('writes prices as amount and currency with two decimals', () => {
    const { items } = feedOf();
    expect(items.map((item) => item['g:price'])).toEqual(['42.00 USD', '3.00 USD', '1234.50 USD']);
  });

  it('maps availability through the documented table, coming_soon to out_of_stock without a date', () => {
    const { items } = feedOf();
    expect(items.map((item) => item['g:availability'])).toEqual(['in_stock', 'out_of_stock', 'out_of_stock']);
    expect(items.some((item) => 'g:availability_date' in item)).toBe(false);
  });

  it('states brand, condition, that no GTIN exists, and each product image', () => {
    const plan = feedReadyPlan();
    const { items } = feedOf(plan);
    for (const item of items) {
      expect(item['g:brand']).toBe(plan.config.merchant.brand);
      expect(item['g:condition']).toBe('new');
      expect(item['g:identifier_exists']).toBe('no');
    }
    expect(items.map((item) => item['g:image_link'])).toEqual([...plan.products].map((p) => p.imageUrl));
  });

  it('when a product has no image or a zero price then it is left out of the feed only, naming the rule', () => {
    const plan = makeSamplePlan();
    const { items } = feedOf(plan);
    expect(items.map((item) => item['g:id'])).toEqual(['1000']);
    expect([...recordsOf(plan.products)]).toHaveLength(3);
    const { excluded } = screenFeedProducts([...plan.products]);
    expect(excluded.map(({ product, rule }) => [product, rule])).toEqual([
      ['ginger-shot', 'image_link'],
      ['winter-citrus', 'image_link'],
    ]);
    const pictured = [...plan.products].map((p) => ({
      ...p,
      record: { ...p.record, images: [{ url: `${plan.config.site_url}/i/${p.record.slug}.jpg` }] },
    }));
    expect(screenFeedProducts(pictured).excluded.map(({ product, rule }) => [product, rule])).toEqual([
      ['ginger-shot', 'price'],
    ]);
  });

  it('when shipping_policy is set then g:shipping and g:free_shipping_threshold state its terms', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      shipping: undefined,
      merchant: { ...SAMPLE_CONFIG_INPUT.merchant, ships_to: ['US', 'CA'] },
      shipping_policy: {
        price: '12',
        free_shipping_threshold: '60',
        min_handling_days: 0,
        max_handling_days: 1,
        min_transit_days: 2,
        max_transit_days: 3,
      },
    });
    const { items } = feedOf(feedReadyPlan(config));
    const us = { 'g:country': 'US', 'g:price': '12.00 USD' };
    const days = {
      'g:min_handling_time': '0',
      'g:max_handling_time': '1',
      'g:min_transit_time': '2',
      'g:max_transit_time': '3',
    };
    expect(items[0]?.['g:shipping']).toEqual([
      { ...us, ...days },
      { ...us, 'g:country': 'CA', ...days },
    ]);
    expect(items[0]?.['g:free_shipping_threshold']).toEqual([
      { 'g:country': 'US', 'g:price_threshold': '60.00 USD' },
      { 'g:country': 'CA', 'g:price_threshold': '60.00 USD' },
    ]);
  });

  it('adds one g:shipping per destination country when a shipping price is configured', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      merchant: { ...SAMPLE_CONFIG_INPUT.merchant, ships_to: ['US', 'CA'] },
      feed: { shipping_price: '5' },
    });
    const { items } = feedOf(feedReadyPlan(config));
    expect(items[0]?.['g:shipping']).toEqual([
      { 'g:country': 'US', 'g:price': '5.00 USD' },
      { 'g:country': 'CA', 'g:price': '5.00 USD' },
    ]);
    expect(feedOf().items[0]).not.toHaveProperty('g:shipping');
  });

  it('round-trips quotes, ampersands, angle brackets, ]]>, emoji and non-Latin text', () => {
    const tricky = 'Say "hi" & <b>bye</b> ]]> it\'s 🍏 青汁 Ωμέγα';
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, name: tricky, description: tricky },
    }));
    const { items } = feedOf(plan);
    expect(items[0]?.['g:title']).toBe(tricky);
    expect(items[0]?.['g:description']).toBe(tricky);
  });

  it('drops control characters that XML 1.0 cannot carry and keeps the rest', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, name: 'Bad\u0000 Name\u0007', description: 'tab\there\u001b[0m end\uFFFF' },
    }));
    const { items } = feedOf(plan);
    expect(items[0]?.['g:title']).toBe('Bad Name');
    expect(items[0]?.['g:description']).toBe('tab\there[0m end');
  });

  it('cuts a 10,000-character description to 5,000 characters and the title to 150', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, name: 'N'.repeat(400), description: 'é'.repeat(10_000) },
    }));
    const { items } = feedOf(plan);
    expect(Array.from(String(items[0]?.['g:description'])).length).toBe(5000);
    expect(Array.from(String(items[0]?.['g:title'])).length).toBe(150);
  });

  it('builds a description from name, flavor and packaging when the catalog has none', () => {
    const { items } = feedOf();
    expect(String(items[1]?.['g:description'])).toContain('Ginger Shot');
    expect(String(items[1]?.['g:description'])).toContain('12 x 2 fl oz');
  });

  // A product's items are rendered when the feed is written, so that is when it is refused.
  it('refuses a product URL with spaces when the feed is written, naming the product', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, url: 'https://shop.pomona.example/a b' },
    }));
    try {
      emitFeed(plan).map(artifactBytes);
      expect.unreachable();
    } catch (error) {
      expect(isCatalogError(error, 'PRODUCT_INVALID')).toBe(true);
      expect(isCatalogError(error) && error.details.product).toBe('green-glow');
    }
  });

  it('refuses a price that is not a decimal amount when the feed is written', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, variants: p.record.variants.map((variant) => ({ ...variant, price: '12,00' })) },
    }));
    expect(() => emitFeed(plan).map(artifactBytes)).toThrow(
      expect.objectContaining({ code: 'PRODUCT_INVALID' }),
    );
  });

  it('publishes a valid channel with no items for an empty catalog', () => {
    const { tree } = feedOf(makeSamplePlan({ products: [] }));
    expect(tree.rss.channel.title).toBeTruthy();
    expect(tree.rss.channel.item).toBeUndefined();
  });

  it('passes its own checker', () => {
    const [artifact] = emitFeed(feedReadyPlan());
    expect(checkFeed(new Map([[FEED_FILE, artifact?.body ?? '']]))).toEqual([]);
  });
});

describe('checkFeed', () => {
  const good = emitFeed(feedReadyPlan())[0]?.body ?? '';
  const check = (body: string) => checkFeed(new Map([[FEED_FILE, body]]));

  it('refuses a missing feed', () => {
    expect(checkFeed(new Map())).toHaveLength(1);
  });

  it('refuses malformed XML', () => {
    expect(check(good.replace('</channel>', '')).map((p) => p.rule)).toEqual(['xml']);
  });

  it('refuses an item without g:price', () => {
    const broken = good.replace(/<g:price>42\.00 USD<\/g:price>/, '');
    expect(
      check(broken)
        .map((p) => p.message)
        .join('\n'),
    ).toMatch(/g:price/);
  });

  it('refuses a price without a currency and an unknown availability', () => {
    const broken = good
      .replace('42.00 USD', '42.00')
      .replace('<g:availability>in_stock', '<g:availability>coming_soon');
    expect(check(broken)).toHaveLength(2);
  });

  it('refuses preorder without an availability date', () => {
    expect(check(good.replace('<g:availability>in_stock', '<g:availability>preorder'))).toHaveLength(1);
  });

  it('refuses duplicate ids and relative links', () => {
    const broken = good
      .replace('<g:id>1001</g:id>', '<g:id>1000</g:id>')
      .replace('<g:link>https://shop.pomona.example/products/ginger-shot', '<g:link>/products/ginger-shot');
    expect(check(broken)).toHaveLength(2);
  });

  it('refuses a feed whose g: prefix is bound to another namespace', () => {
    expect(check(good.replace('http://base.google.com/ns/1.0', 'http://example.com/g'))).toHaveLength(1);
  });
});
