/**
 * A small, hand-made build plan for emitter and server tests that should not depend on
 * the upstream pipeline: three products, one with characters that break careless
 * formats (quotes, ampersands, angle brackets, `]]>`, emoji, non-Latin text), one out of
 * stock and one coming soon, plus one article.
 */
import { type ConfigInput, type ResolvedConfig, resolveConfig } from '../../generator/config.js';
import type { Product } from '../../generator/model.js';
import { planBuild } from '../../generator/pipeline.js';
import type { Article, BuildPlan, PlannedProduct } from '../../generator/plan.js';
import { describeShipping } from '../../generator/shipping/policy.js';
import { recordOfSeedProduct } from '../../record/build-record.js';

export const SAMPLE_GENERATED = '2026-11-21T12:00:00.000Z';

export const SAMPLE_CONFIG_INPUT: ConfigInput = {
  merchant: {
    name: 'Pomona Press Juice Co.',
    slug: 'pomona',
    description: 'Cold-pressed organic juices, bottled in glass in Oakland, California.',
    url: 'https://shop.pomona.example',
    contact: 'hello@pomona.example',
    currency: 'USD',
    ships_to: ['US'],
  },
  auth_url: 'https://auth.pomona.example',
  upstream: { format: 'native', source: 'upstream.json' },
  shipping: 'Ships cold in 1-2 business days; free over $60.',
};

export function makeSampleConfig(input: ConfigInput = SAMPLE_CONFIG_INPUT): ResolvedConfig {
  return resolveConfig(input, { file: 'sample.config.json', configDir: '/nonexistent' });
}

function product(
  config: ResolvedConfig,
  fields: Partial<Product> & Pick<Product, 'name' | 'slug' | 'price'>,
): Product {
  const url = `${config.site_url}/products/${fields.slug}`;
  return {
    name: fields.name,
    ...(fields.flavor ? { flavor: fields.flavor } : {}),
    slug: fields.slug,
    url,
    description: fields.description ?? null,
    ...(fields.packaging ? { packaging: fields.packaging } : {}),
    ingredients: fields.ingredients ?? null,
    nutrition: fields.nutrition ?? null,
    benefits: fields.benefits ?? null,
    certifications: fields.certifications ?? null,
    price: fields.price,
    currency: config.merchant.currency,
    availability: fields.availability ?? 'in_stock',
    ...(describeShipping(config) !== undefined ? { shipping: describeShipping(config) } : {}),
    purchase_url: url,
  };
}

export function makeSampleProducts(config: ResolvedConfig): PlannedProduct[] {
  const records: Product[] = [
    product(config, {
      name: 'Green Glow',
      flavor: 'Kale, cucumber & green apple',
      slug: 'green-glow',
      description: 'A bright "green" juice <for mornings> & afternoons ]]> — 🍏 青汁 .',
      packaging: '6 x 12 fl oz (355 mL) glass bottles',
      ingredients: ['kale', 'cucumber', 'green apple', 'lemon'],
      nutrition: { serving: '12 fl oz', calories: 120, sugar_g: 18 },
      benefits: ['hydrating', 'source of vitamin C'],
      certifications: ['USDA Organic', 'Non-GMO Project Verified'],
      price: '42.00',
    }),
    product(config, {
      name: 'Ginger Shot',
      slug: 'ginger-shot',
      description: null,
      packaging: '12 x 2 fl oz (59 mL) glass bottles',
      ingredients: 'ginger, lemon, cayenne',
      price: '0.00',
      availability: 'out_of_stock',
    }),
    product(config, {
      name: 'Winter Citrus',
      slug: 'winter-citrus',
      description: 'Blood orange and grapefruit.',
      price: '1234.50',
      availability: 'coming_soon',
    }),
  ];
  return records.map((record, index) => {
    const sourceId = String(1000 + index);
    const imageUrl = index === 0 ? `${config.site_url}/images/green-glow.jpg` : undefined;
    return {
      record: recordOfSeedProduct(record, sourceId, imageUrl === undefined ? {} : { imageUrl }),
      sourceId,
      ...(imageUrl === undefined ? {} : { imageUrl }),
      updatedAt: '2026-11-20T08:00:00.000Z',
    };
  });
}

export const SAMPLE_ARTICLES: Article[] = [
  {
    slug: 'how-we-press',
    title: 'How we press & bottle',
    description: 'Cold pressing, glass bottles and why we never pasteurise with heat.',
    body: '# How we press\n\nWe press every batch within **24 hours** of harvest.\n',
    updated: '2026-10-01',
  },
];

export function makeSamplePlan(
  options: { config?: ResolvedConfig; products?: PlannedProduct[] } = {},
): BuildPlan {
  const config = options.config ?? makeSampleConfig();
  const products = options.products ?? makeSampleProducts(config);
  return planBuild({ config, products, articles: SAMPLE_ARTICLES, generated: SAMPLE_GENERATED });
}

/** The sample plan with its first product (green-glow) changed by `change`, for tests of one bad product. */
export function makeSamplePlanWithFirstProduct(
  change: (product: PlannedProduct) => PlannedProduct,
): BuildPlan {
  const config = makeSampleConfig();
  const [first, ...rest] = makeSampleProducts(config);
  if (first === undefined) throw new Error('sample has no products');
  return makeSamplePlan({ config, products: [change(first), ...rest] });
}

/** The sample products with every one meeting Google's feed item rules (an image, a price above zero). */
export function makeFeedReadyProducts(config: ResolvedConfig): PlannedProduct[] {
  return makeSampleProducts(config).map((product) => {
    const imageUrl = `${config.site_url}/images/${product.record.slug}.jpg`;
    const price = product.record.price === '0.00' ? '3.00' : product.record.price;
    return {
      ...product,
      imageUrl,
      record: recordOfSeedProduct({ ...product.record, price }, product.sourceId, { imageUrl }),
    };
  });
}
