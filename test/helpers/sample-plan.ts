/**
 * A small, hand-made build plan for emitter and server tests that should not depend on
 * the upstream pipeline: three products, one with characters that break careless
 * formats (quotes, ampersands, angle brackets, `]]>`, emoji, non-Latin text), one out of
 * stock and one coming soon, plus one article.
 */
import { type ConfigInput, type ResolvedConfig, resolveConfig } from '../../generator/config.js';
import type { Catalog, Product, ProductRecord, ProductVariant } from '../../generator/model.js';
import { planBuild } from '../../generator/pipeline.js';
import type { Article, BuildPlan, PlannedProduct } from '../../generator/plan.js';
import { describeShipping } from '../../generator/shipping/policy.js';
import { buildProductRecord, type RecordInput, recordOfSeedProduct } from '../../record/build-record.js';

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

/** The OpenAI feed turned on with every field it requires, for the sample merchant. */
export const SAMPLE_OPENAI_FEED = {
  enabled: true,
  seller_name: 'Pomona Press',
  seller_url: 'https://shop.pomona.example',
  return_policy: 'https://shop.pomona.example/returns',
  store_country: 'US',
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

/** `count` copies of the sample's first product, each its own product (juice-0000, juice-0001, ...). */
export function makeManyProducts(config: ResolvedConfig, count: number): PlannedProduct[] {
  const [template] = makeSampleProducts(config);
  if (template === undefined) throw new Error('no sample product');
  return Array.from({ length: count }, (_, index) => {
    const slug = `juice-${String(index).padStart(4, '0')}`;
    const url = `${config.site_url}/products/${slug}`;
    const image = template.record.images[0];
    return {
      ...template,
      sourceId: String(index + 1),
      record: recordOfSeedProduct(
        { ...template.record, name: `Juice ${index}`, slug, url, purchase_url: url },
        String(index + 1),
        image === undefined ? {} : { imageUrl: image.url },
      ),
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
  options: { config?: ResolvedConfig; products?: PlannedProduct[]; articles?: Article[] } = {},
): BuildPlan {
  const config = options.config ?? makeSampleConfig();
  const products = options.products ?? makeSampleProducts(config);
  const articles = options.articles ?? SAMPLE_ARTICLES;
  return planBuild({ config, products, articles, generated: SAMPLE_GENERATED });
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

/** A store that sells no food: outdoor apparel, a printable guide and cable, with variants. */
export const VARIED_CONFIG_INPUT: ConfigInput = {
  merchant: {
    name: 'Ridgeline Supply',
    slug: 'ridgeline',
    description: 'Outdoor clothing, field guides and rope for climbers.',
    url: 'https://shop.ridgeline.example',
    contact: 'help@ridgeline.example',
    currency: 'USD',
    ships_to: ['US', 'CA'],
  },
  auth_url: 'https://auth.ridgeline.example',
  upstream: { format: 'native', source: 'upstream.json' },
  shipping_policy: { price: '5.00', free_shipping_threshold: '100.00' },
};

/** A size chart as the adapters write it from the store's HTML table. */
export const SIZE_CHART_MARKDOWN = [
  'Brushed fleece with a full hood.',
  '',
  '# Size chart',
  '',
  '| Size | Chest (in) | Sleeve length (in) |',
  '| --- | --- | --- |',
  '| XS | 34 | 8 ½ |',
  '| L | 42 | 9 ½ |',
].join('\n');

function variedRecord(
  config: ResolvedConfig,
  fields: Omit<
    RecordInput,
    | 'url'
    | 'purchase_url'
    | 'currency'
    | 'ingredients'
    | 'nutrition'
    | 'benefits'
    | 'certifications'
    | 'description'
  > &
    Partial<Pick<RecordInput, 'description'>>,
): ProductRecord {
  const url = `${config.site_url}/products/${fields.slug}`;
  const shipping = describeShipping(config);
  return buildProductRecord({
    description: null,
    ...fields,
    url,
    purchase_url: url,
    currency: config.merchant.currency,
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    ...(shipping !== undefined && fields.variants.some((variant) => variant.requires_shipping)
      ? { shipping }
      : {}),
  });
}

function variant(
  id: string,
  options: [string, string][],
  price: string,
  rest: Partial<ProductVariant> = {},
): ProductVariant {
  return {
    id,
    title: options.map(([, value]) => value).join(' / '),
    options: options.map(([name, value]) => ({ name, value })),
    price,
    availability: 'in_stock',
    requires_shipping: true,
    ...rest,
  };
}

/**
 * Three products with what the juice sample lacks: a hoodie in Size × Colour with partial
 * stock, one variant on sale, its own images, brand and a size chart in Markdown; a PDF
 * guide that needs no shipping and is on sale; rope sold by the roll length.
 */
export function makeVariedProducts(config: ResolvedConfig): PlannedProduct[] {
  const site = config.site_url;
  const hoodieUrl = `${site}/products/trail-hoodie`;
  const hoodie = variedRecord(config, {
    name: 'Trail Hoodie',
    slug: 'trail-hoodie',
    description: 'Brushed fleece with a full hood. Size chart: Size Chest XS 34 L 42',
    id: '7001',
    brand: 'Northface & Co',
    category: 'Hoodies',
    tags: ['fleece'],
    images: [
      { url: `${site}/images/hoodie-red.jpg`, alt: 'Trail Hoodie in red', width: 800, height: 800 },
      { url: `${site}/images/hoodie-navy.jpg` },
    ],
    options: [
      { name: 'Size', values: ['XS', 'L'] },
      { name: 'Colour', values: ['Red', 'Navy'] },
    ],
    variants: [
      variant(
        '7001-1',
        [
          ['Size', 'XS'],
          ['Colour', 'Red'],
        ],
        '45.00',
        { sku: 'HD-XS-R', url: `${hoodieUrl}?variant=7001-1`, gtin: '0012345678905' },
      ),
      variant(
        '7001-2',
        [
          ['Size', 'XS'],
          ['Colour', 'Navy'],
        ],
        '45.00',
        { sku: 'HD-XS-N', availability: 'out_of_stock', image: `${site}/images/hoodie-navy.jpg` },
      ),
      variant(
        '7001-3',
        [
          ['Size', 'L'],
          ['Colour', 'Red'],
        ],
        '49.00',
        { sku: 'HD-L-R', compare_at_price: '59.00', url: `${hoodieUrl}?variant=7001-3` },
      ),
      variant(
        '7001-4',
        [
          ['Size', 'L'],
          ['Colour', 'Navy'],
        ],
        '49.00',
        { availability: 'out_of_stock' },
      ),
    ],
  });
  const guide = variedRecord(config, {
    name: 'Alpine Field Guide (PDF)',
    slug: 'alpine-field-guide',
    description: 'A printable guide to 40 routes.',
    id: '7002',
    tags: [],
    images: [{ url: `${site}/images/guide.jpg` }],
    options: [],
    variants: [
      variant('7002', [], '12.00', {
        title: 'Alpine Field Guide (PDF)',
        compare_at_price: '15.00',
        requires_shipping: false,
      }),
    ],
  });
  const rope = variedRecord(config, {
    name: 'Static Rope 10 mm',
    slug: 'static-rope',
    packaging: '50 m or 100 m roll',
    id: '7003',
    brand: 'Ridgeline',
    tags: [],
    images: [{ url: `${site}/images/rope.jpg` }],
    options: [{ name: 'Length', values: ['50 m roll', '100 m roll'] }],
    variants: [
      variant('7003-50', [['Length', '50 m roll']], '89.50', { sku: 'RP-50' }),
      variant('7003-100', [['Length', '100 m roll']], '160.00', {
        sku: 'RP-100',
        availability: 'coming_soon',
      }),
    ],
  });
  return [
    { record: guide, sourceId: guide.id, imageUrl: `${site}/images/guide.jpg` },
    { record: rope, sourceId: rope.id, imageUrl: `${site}/images/rope.jpg` },
    {
      record: hoodie,
      sourceId: hoodie.id,
      imageUrl: `${site}/images/hoodie-red.jpg`,
      descriptionMarkdown: SIZE_CHART_MARKDOWN,
    },
  ];
}

/** The no-food store's plan, sorted by slug like a real one. */
export function makeVariedPlan(): BuildPlan {
  const config = makeSampleConfig(VARIED_CONFIG_INPUT);
  const articles: Article[] = [
    {
      slug: 'choosing-rope',
      title: 'Choosing a static rope',
      body: '# Static or dynamic?\n\nStatic rope stretches less than 5% under load.\n',
    },
  ];
  return makeSamplePlan({ config, products: makeVariedProducts(config), articles });
}

/** The whole catalog document of a plan (its head with every record), as the bundle publishes it. */
export function catalogOf(plan: Pick<BuildPlan, 'catalog' | 'products'>): Catalog {
  return { ...plan.catalog, products: [...plan.products].map((product) => product.record) };
}
