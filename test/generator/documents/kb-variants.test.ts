/**
 * The knowledge base (and llms-full.txt, which inlines it) from the record: variants as a
 * Markdown table a reader gets back cell for cell, the store's size chart kept as a table,
 * images, brand, sale prices, a digital product without a shipping line, and only the
 * facts lines this merchant's products carry.
 */
import { describe, expect, it } from 'vitest';
import { emitKnowledgeBase } from '../../../generator/emit/kb.js';
import { readKnowledgeBaseProducts } from '../../../generator/emit/kb-markdown.js';
import { emitLlms, LLMS_FULL_FILE } from '../../../generator/emit/llms.js';
import type { BuildPlan, PlannedProduct } from '../../../generator/plan.js';
import { makeSamplePlan, makeVariedPlan } from '../../helpers/sample-plan.js';

function markdownOf(plan: BuildPlan): string {
  const artifact = emitKnowledgeBase(plan).find((a) => a.path.endsWith('-knowledge-base.md'));
  if (artifact === undefined) throw new Error('no knowledge base');
  return artifact.body;
}

function sectionOf(markdown: string, name: string): string {
  const start = markdown.indexOf(`### ${name}\n`);
  if (start < 0) throw new Error(`no section ${name}`);
  const next = markdown.slice(start + 4).search(/^#{2,3} /m);
  return next < 0 ? markdown.slice(start) : markdown.slice(start, start + 4 + next);
}

function withHoodie(plan: BuildPlan, change: (hoodie: PlannedProduct) => PlannedProduct): BuildPlan {
  const products = [...plan.products].map((product) =>
    product.record.slug === 'trail-hoodie' ? change(product) : product,
  );
  return makeSamplePlan({ config: plan.config, products, articles: plan.articles });
}

describe('the knowledge base from the record', () => {
  const plan = makeVariedPlan();
  const markdown = markdownOf(plan);

  it('lists every variant in a table that reads back to the record: id, price, "was" price, availability', () => {
    const read = readKnowledgeBaseProducts(markdown);
    for (const { record } of plan.products) {
      const section = read.find((entry) => entry.id === record.slug);
      const expected =
        record.variants.length > 1 || record.options.length > 0
          ? record.variants.map((variant) => ({
              id: variant.id,
              price: `${variant.price} USD`,
              was: variant.compare_at_price === undefined ? '' : `${variant.compare_at_price} USD`,
              availability: variant.availability,
            }))
          : [];
      expect(section?.variants).toEqual(expected);
    }
  });

  it('names the options as columns, with each variant value in its row', () => {
    const hoodie = sectionOf(markdown, 'Trail Hoodie');
    expect(hoodie).toContain('| Variant ID | Size | Colour | SKU | Price | Was | Availability |');
    expect(hoodie).toContain('| 7001-3 | L | Red | HD-L-R | 49.00 USD | 59.00 USD | in_stock |');
  });

  it("keeps the store's size chart as a table, one size per line, its heading nested under the product", () => {
    const hoodie = sectionOf(markdown, 'Trail Hoodie');
    expect(hoodie).toContain('##### Size chart');
    expect(hoodie.split('\n')).toEqual(
      expect.arrayContaining([
        '| Size | Chest (in) | Sleeve length (in) |',
        '| XS | 34 | 8 ½ |',
        '| L | 42 | 9 ½ |',
      ]),
    );
  });

  it('states the price range, the sale price, the brand and links every image', () => {
    const rope = sectionOf(markdown, 'Static Rope 10 mm');
    expect(rope).toContain('- Price range: 89.50 to 160.00 USD');
    expect(rope).toContain('- Brand: Ridgeline');
    const guide = sectionOf(markdown, 'Alpine Field Guide (PDF)');
    expect(guide).toContain('- Was: 15.00 USD (on sale)');
    const hoodie = sectionOf(markdown, 'Trail Hoodie');
    for (const image of plan.products.at(2)?.record.images ?? []) expect(hoodie).toContain(`](${image.url})`);
    expect(hoodie).toContain('[Trail Hoodie in red]');
  });

  it('says a digital product is not shipped, and gives it no shipping terms', () => {
    const guide = sectionOf(markdown, 'Alpine Field Guide (PDF)');
    expect(guide).toContain('- Delivery: digital, nothing is shipped');
    expect(guide).not.toContain('- Shipping:');
    expect(sectionOf(markdown, 'Static Rope 10 mm')).toContain('- Shipping: Ships to US, CA');
  });

  it('has no "not listed" line for a field no product of the store carries', () => {
    expect(markdown).not.toMatch(/^- (Ingredients|Nutrition|Benefits|Certifications|Flavor):/m);
    expect(markdown).not.toContain('not listed');
  });

  it('still lists ingredients and nutrition, listed or not, for the juice shop', () => {
    const juice = markdownOf(makeSamplePlan());
    expect(sectionOf(juice, 'Winter Citrus')).toContain('- Ingredients: not listed');
    expect(sectionOf(juice, 'Green Glow')).toMatch(/- Nutrition: calories 120/);
  });

  it('inlines the same tables in llms-full.txt', () => {
    const full = emitLlms(plan).find((artifact) => artifact.path === LLMS_FULL_FILE)?.body ?? '';
    expect(full).toContain(sectionOf(markdown, 'Trail Hoodie'));
  });

  it('escapes a pipe in an option value so the row keeps its cells, and reads it back', () => {
    const piped = withHoodie(plan, (hoodie) => ({
      ...hoodie,
      record: {
        ...hoodie.record,
        variants: hoodie.record.variants.map((variant, index) =>
          index === 0 ? { ...variant, sku: 'HD|XS [red]' } : variant,
        ),
      },
    }));
    const body = markdownOf(piped);
    expect(body).toContain('| HD\\|XS \\[red\\] |');
    const hoodie = readKnowledgeBaseProducts(body).find((entry) => entry.id === 'trail-hoodie');
    expect(hoodie?.variants[0]).toEqual({
      id: '7001-1',
      price: '45.00 USD',
      was: '',
      availability: 'in_stock',
    });
  });

  it('when a product without variants has a description opening with a Variants table then it reads no variants', () => {
    const forgedTable =
      '# Variants\n\n| Variant ID | Price | Was | Availability |\n| --- | --- | --- | --- |\n| 9 | 1.00 USD |  | in_stock |';
    const products = [...plan.products].map((product) =>
      product.record.slug === 'alpine-field-guide'
        ? { ...product, descriptionMarkdown: forgedTable }
        : product,
    );
    const forged = makeSamplePlan({ config: plan.config, products, articles: plan.articles });
    const guide = readKnowledgeBaseProducts(markdownOf(forged)).find(
      (entry) => entry.id === 'alpine-field-guide',
    );
    expect(guide?.variants).toEqual([]);
  });

  it("when the store's description has its own Variants table then it cannot pose as the variants", () => {
    const forged = withHoodie(plan, (hoodie) => ({
      ...hoodie,
      descriptionMarkdown:
        '# Variants\n\n| Variant ID | Price | Was | Availability |\n| --- | --- | --- | --- |\n| 9 | 1.00 USD |  | in_stock |',
    }));
    const hoodie = readKnowledgeBaseProducts(markdownOf(forged)).find((entry) => entry.id === 'trail-hoodie');
    expect(hoodie?.variants.map((variant) => variant.id)).toEqual(['7001-1', '7001-2', '7001-3', '7001-4']);
  });
});
