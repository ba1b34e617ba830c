/**
 * Text hygiene after entity decoding: an upstream description is HTML, and a character
 * written as an entity (`&#8;`, `&#x202E;`) only becomes a character when html-to-text
 * decodes it, after the raw JSON was cleaned. A Shopify store whose body_html carries C0,
 * C1, bidi and noncharacter entities is built through the whole pipeline; no JSON document
 * may carry a character any other document strips, and the catalog's description must be
 * the text the feed and the knowledge base publish for that product.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { build } from '../../../generator/build.js';
import { silentLogger } from '../../../generator/logger.js';
import { normaliseProducts } from '../../../generator/normalise/index.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { strippedStringsOf } from '../../helpers/stripped-text.js';
import { FIXED_NOW, makeWorkspace } from '../pipeline/helpers.js';

// C1 code points that HTML does not remap to Windows-1252 letters (&#x85; is "…").
const ENTITY_HTML =
  '<p>Spicy ginger&#8;kick &#8238;evil&#8236; &#x1; &#xFFFE; &#x81;calm&#x9D; &#x2066;mint&#x2069; &#127;end</p>';

function bodyOf(artifacts: readonly Artifact[], path: string): string {
  const found = artifacts.find((artifact) => artifact.path === path);
  if (!found) throw new Error(`no ${path} among ${artifacts.map((a) => a.path).join(', ')}`);
  return found.body;
}

describe('a description whose control characters are HTML entities', () => {
  let dir = '';
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ dir, cleanup } = await makeWorkspace());
    const products = makeShopifyProducts(3).map((product, index) => ({
      ...product,
      body_html: index === 1 ? ENTITY_HTML : product.body_html,
    }));
    await writeFile(join(dir, 'products.json'), JSON.stringify({ products }));
    const config = {
      merchant: {
        name: 'Entity Juice',
        url: 'https://entity.example',
        contact: 'hi@entity.example',
        currency: 'USD',
        ships_to: ['US'],
      },
      auth_url: 'https://auth.entity.example',
      upstream: { format: 'shopify', source: 'products.json' },
    };
    await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(config));
  });
  afterAll(() => cleanup());

  it('when built then no JSON document carries a stripped character and the catalog says what the feed and KB say', async () => {
    const result = await build({
      configPath: 'catalog.config.json',
      out: 'dist',
      cwd: dir,
      write: false,
      logger: silentLogger,
      now: () => FIXED_NOW,
    });
    const jsonDocuments = result.artifacts.filter((artifact) => artifact.path.endsWith('.json'));
    expect(jsonDocuments.map((artifact) => artifact.path)).toContain('kb/products.json');
    for (const artifact of jsonDocuments) {
      expect(strippedStringsOf(artifact.body), artifact.path).toEqual([]);
    }
    const product = [...recordsOf(result.plan.products)].find((item) => item.description?.includes('Spicy'));
    expect(product?.description).toBe('Spicy gingerkick evil calm mint end');
    const feed = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'item' }).parse(
      bodyOf(result.artifacts, 'feed.xml'),
    ) as { rss: { channel: { item: Record<string, string>[] } } };
    // One item per variant: the featured variant's item stands for the product.
    const item = feed.rss.channel.item.find((entry) => entry['g:id'] === product?.variants?.[0]?.id);
    expect(item?.['g:description']).toBe(product?.description);
    const kb = result.artifacts.find((artifact) => /^kb\/.*knowledge-base\.md$/.test(artifact.path));
    expect(kb?.body).toContain(`\n${product?.description}\n`);
    expect(bodyOf(result.artifacts, 'llms-full.txt')).toContain(product?.description);
  });
});

describe('every adapter cleans the text it decodes from HTML', () => {
  const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };

  it('when a WooCommerce description holds entity-encoded controls then the record does not', () => {
    const raw = {
      id: 1,
      name: 'Ginger',
      slug: 'ginger',
      permalink: 'https://shop.example/product/ginger',
      description: ENTITY_HTML,
      prices: { price: '900', currency_code: 'USD', currency_minor_unit: 2 },
      is_in_stock: true,
      is_purchasable: true,
    };
    const outcome = normaliseProducts([raw], 'woocommerce', context);
    expect(outcome.rejected).toEqual([]);
    expect(outcome.products[0]?.record.description).toBe('Spicy gingerkick evil calm mint end');
  });

  it('when a native HTML description holds entity-encoded controls then the record does not', () => {
    const raw = {
      name: 'Beet',
      slug: 'beet',
      description: ENTITY_HTML,
      price: '8.00',
      availability: 'in_stock',
    };
    const outcome = normaliseProducts([raw], 'native', context);
    expect(outcome.rejected).toEqual([]);
    expect(outcome.products[0]?.record.description).toBe('Spicy gingerkick evil calm mint end');
  });
});
