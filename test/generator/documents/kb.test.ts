import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { checkKnowledgeBase, emitKnowledgeBase, KB_PRODUCTS_FILE } from '../../../generator/emit/kb.js';
import { readKnowledgeBaseProducts } from '../../../generator/emit/kb-markdown.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import {
  makeSampleConfig,
  makeSamplePlan,
  makeSamplePlanWithFirstProduct,
} from '../../helpers/sample-plan.js';

const MD_PATH = 'kb/pomona-knowledge-base.md';

function emitted(plan = makeSamplePlan()) {
  const artifacts = emitKnowledgeBase(plan);
  const json = artifacts.find((a) => a.path === KB_PRODUCTS_FILE);
  const markdown = artifacts.find((a) => a.path === MD_PATH);
  if (json === undefined || markdown === undefined) throw new Error('missing kb artifacts');
  return { artifacts, json, markdown, parsed: matter(markdown.body, {}) };
}

describe('emitKnowledgeBase', () => {
  it('publishes products.json with the catalog records unchanged, the source and the usage terms', () => {
    const plan = makeSamplePlan();
    const { json } = emitted(plan);
    const data = JSON.parse(json.body) as Record<string, unknown>;
    expect(json.mediaType).toBe('application/json');
    expect(data.products).toEqual([...recordsOf(plan.products)]);
    expect(data.count).toBe([...recordsOf(plan.products)].length);
    expect(data.source).toBe(`${plan.config.base_url}/agent-catalog`);
    expect(data.generated).toBe(plan.generated);
    expect(data.usage).toMatchObject({
      training: 'not permitted',
      automated_purchases: 'not permitted',
      requests_per_minute: 60,
    });
  });

  it('writes the Markdown under the merchant slug with front matter a YAML parser reads back', () => {
    const plan = makeSamplePlan();
    const { markdown, parsed } = emitted(plan);
    expect(markdown.mediaType).toBe('text/markdown; charset=utf-8');
    expect(parsed.data.title).toBe('Pomona Press Juice Co. knowledge base');
    expect(parsed.data.source).toBe(`${plan.config.base_url}/agent-catalog`);
    expect(parsed.data.generated).toBe(plan.generated);
    expect(parsed.data.license).toMatch(/train/);
    expect(parsed.data.products).toBe(3);
  });

  it('covers every product with its link, price, availability and facts', () => {
    const plan = makeSamplePlan();
    const sections = readKnowledgeBaseProducts(emitted(plan).parsed.content);
    expect(sections.map((s) => s.id)).toEqual([...recordsOf(plan.products)].map((p) => p.slug));
    expect(sections.map((s) => s.link)).toEqual([...recordsOf(plan.products)].map((p) => p.url));
    expect(sections.map((s) => s.availability)).toEqual(['in_stock', 'out_of_stock', 'coming_soon']);
    expect(sections[0]?.price).toBe('42.00 USD');
    expect(sections[0]?.facts.Ingredients).toBe('kale; cucumber; green apple; lemon');
    expect(sections[0]?.facts.Nutrition).toContain('calories 120');
    expect(sections[0]?.facts.Certifications).toContain('USDA Organic');
    expect(sections[0]?.facts.Packaging).toBe('6 x 12 fl oz (355 mL) glass bottles');
    expect(sections[0]?.name).toBe('Green Glow');
  });

  it('includes the articles with their headings nested below the article title', () => {
    const { parsed } = emitted();
    expect(parsed.content).toContain('### How we press & bottle');
    expect(parsed.content).toMatch(/^#### How we press$/m);
    expect(parsed.content).not.toMatch(/^# How we press$/m);
  });

  it('keeps a hostile product name from adding headings, links, HTML or front matter', () => {
    const name = 'Evil\n# Heading\n---\ntitle: hacked\n[click](https://evil.example) <script>x</script>';
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, name, description: '## not a heading\n\n- ID: fake' },
    }));
    const { parsed } = emitted(plan);
    expect(parsed.data.title).toBe('Pomona Press Juice Co. knowledge base');
    expect(parsed.content).not.toMatch(/^#{1,6} Heading/m);
    expect(parsed.content).not.toMatch(/^## not a heading/m);
    expect(parsed.content).not.toContain('<script>');
    expect(parsed.content).not.toContain('[click](');
    const sections = readKnowledgeBaseProducts(parsed.content);
    expect(sections).toHaveLength(3);
    expect(sections[0]?.name).toBe(name.replace(/\s+/g, ' '));
    expect(sections[0]?.id).toBe('green-glow');
  });

  it('keeps a front matter value with quotes, colons and newlines intact', () => {
    const config = makeSampleConfig({
      merchant: {
        name: 'Pomona: "Press"\nJuice',
        slug: 'pomona',
        url: 'https://shop.pomona.example',
        contact: 'hello@pomona.example',
        currency: 'USD',
        ships_to: ['US'],
      },
      auth_url: 'https://auth.pomona.example',
      upstream: { source: 'x.json' },
    });
    const { parsed } = emitted(makeSamplePlan({ config }));
    expect(parsed.data.merchant).toBe('Pomona: "Press"\nJuice');
  });

  // A product's section is rendered when the knowledge base is written, so that is when it is refused.
  it('refuses a product URL with spaces when the knowledge base is written, naming the product', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, url: 'https://shop.pomona.example/a b' },
    }));
    expect(() => emitKnowledgeBase(plan).map(artifactBytes)).toThrow(
      expect.objectContaining({
        code: 'PRODUCT_INVALID',
        details: expect.objectContaining({ product: 'green-glow' }),
      }),
    );
  });

  it('drops control characters and keeps quotes, ]]>, emoji and non-Latin text in a product section', () => {
    const name = 'The "Best"\u0000 Juice ]]> 🍏 青汁\u0007';
    const plan = makeSamplePlanWithFirstProduct((p) => ({ ...p, record: { ...p.record, name } }));
    const [section] = readKnowledgeBaseProducts(emitted(plan).parsed.content);
    expect(section?.name).toBe('The "Best" Juice ]]> 🍏 青汁');
    const body = emitted(plan).markdown.body;
    expect([...body].some((char) => (char.codePointAt(0) ?? 32) < 9)).toBe(false);
  });

  it('keeps a 10,000-character description whole', () => {
    const description = 'x'.repeat(10_000);
    const plan = makeSamplePlanWithFirstProduct((p) => ({ ...p, record: { ...p.record, description } }));
    expect(emitted(plan).parsed.content).toContain(description);
  });

  it('passes its own checker', () => {
    expect(checkKnowledgeBase(bundleFilesOf(emitted().artifacts))).toEqual([]);
  });
});

describe('checkKnowledgeBase', () => {
  const files = () => new Map(bundleFilesOf(emitted().artifacts));

  it('refuses a missing Markdown document', () => {
    const bundle = files();
    bundle.delete(MD_PATH);
    expect(checkKnowledgeBase(bundle).map((p) => p.rule)).toEqual(['missing']);
  });

  it('refuses front matter without a license', () => {
    const bundle = files();
    bundle.set(MD_PATH, (bundle.get(MD_PATH) ?? '').replace(/^license: .*$/m, ''));
    expect(checkKnowledgeBase(bundle).map((p) => p.rule)).toEqual(['front-matter']);
  });

  it('refuses a knowledge base whose price disagrees with products.json', () => {
    const bundle = files();
    bundle.set(MD_PATH, (bundle.get(MD_PATH) ?? '').replace('- Price: 42.00 USD', '- Price: 41.00 USD'));
    expect(checkKnowledgeBase(bundle)).toHaveLength(1);
  });

  it('refuses products.json whose count is wrong', () => {
    const bundle = files();
    const data = JSON.parse(bundle.get(KB_PRODUCTS_FILE) ?? '{}') as Record<string, unknown>;
    bundle.set(KB_PRODUCTS_FILE, JSON.stringify({ ...data, count: 7 }));
    expect(checkKnowledgeBase(bundle)).toHaveLength(1);
  });
});
