import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { buildProductRecord } from '../../../record/build-record.js';
import {
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_OPENAI_FEED,
} from '../../helpers/sample-plan.js';
import { ensureCompiled, runCli } from '../cli/run-cli.js';
import { makeSampleWorkspace } from '../cli/sample-workspace.js';
import { compileAcpSchema, readOpenAiFeed, specFaults } from './agent-feeds-reader.js';

interface CatalogVariant {
  id: string;
  url?: string;
  price: string;
  compare_at_price?: string;
  availability: string;
  image?: string;
}
interface CatalogProduct {
  id: string;
  url: string;
  currency: string;
  images: { url: string }[];
  variants: CatalogVariant[];
}

/** What the catalog says each variant's feed row must say, by the feeds' shared convention (price = regular, sale_price = now). */
function expectedRows(products: CatalogProduct[]) {
  return new Map(
    products.flatMap((product) =>
      product.variants.map((variant) => [
        variant.id,
        {
          url: variant.url ?? product.url,
          price: `${variant.compare_at_price ?? variant.price} ${product.currency}`,
          sale: variant.compare_at_price === undefined ? undefined : `${variant.price} ${product.currency}`,
          inStock: variant.availability === 'in_stock',
          hasImage: (variant.image ?? product.images[0]?.url) !== undefined,
        },
      ]),
    ),
  );
}

describe('the agent feeds of the sample, built by the CLI', () => {
  let workspace: { dir: string; cleanup: () => Promise<void> };
  let dist = '';
  let catalog: CatalogProduct[] = [];

  beforeAll(async () => {
    await ensureCompiled();
    workspace = await makeSampleWorkspace();
    const run = await runCli(['build', '--quiet'], { cwd: workspace.dir });
    expect(run.code, run.stderr).toBe(0);
    dist = join(workspace.dir, 'dist');
    catalog = JSON.parse(await readFile(join(dist, 'agent-catalog.json'), 'utf8')).products;
  }, 120_000);

  afterAll(() => workspace?.cleanup());

  it('when the OpenAI feed is read by the spec then every row carries every required field in its form', async () => {
    const feed = await readOpenAiFeed(dist);
    expect(feed.jsonRows.length).toBeGreaterThan(0);
    expect(feed.manifest.row_count).toBe(feed.jsonRows.length);
    for (const row of feed.jsonRows) expect(specFaults(row), String(row.item_id)).toEqual([]);
    expect(feed.jsonRows.every((row) => row.is_eligible_checkout === false)).toBe(true);
  });

  it('when the CSV shards are read then they hold the JSON Lines rows cell for cell', async () => {
    const feed = await readOpenAiFeed(dist);
    expect(feed.csvRows).toHaveLength(feed.jsonRows.length);
    feed.jsonRows.forEach((row, index) => {
      const csv = feed.csvRows[index] ?? {};
      expect(csv.item_id).toBe(row.item_id);
      expect(csv.price).toBe(row.price);
      expect(csv.is_eligible_search).toBe(String(row.is_eligible_search));
      expect(csv.target_countries).toBe((row.target_countries as string[]).join(','));
    });
  });

  it('when the OpenAI rows are compared with the catalog then every variant agrees on id, price, sale price, availability and link', async () => {
    const feed = await readOpenAiFeed(dist);
    const expected = expectedRows(catalog);
    const seen = new Set<string>();
    for (const row of feed.jsonRows) {
      const want = expected.get(String(row.item_id));
      expect(want, `item ${String(row.item_id)} is a catalog variant`).toBeDefined();
      expect(row.url).toBe(want?.url);
      expect(row.price).toBe(want?.price);
      expect(row.sale_price).toBe(want?.sale);
      expect(row.availability === 'in_stock').toBe(want?.inStock);
      seen.add(String(row.item_id));
    }
    for (const [id, want] of expected) if (want.hasImage) expect(seen.has(id), id).toBe(true);
  });

  it('when the ACP feed is validated against the release schema then metadata and every product line pass and agree with the catalog', async () => {
    const schema = await compileAcpSchema();
    const metadata = JSON.parse(await readFile(join(dist, 'feeds/acp/metadata.json'), 'utf8'));
    expect(schema.metadata(metadata)).toBe(true);
    const lines = (await readFile(join(dist, 'feeds/acp/products.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean);
    expect(lines).toHaveLength(catalog.length);
    const byId = new Map(catalog.map((product) => [product.id, product]));
    for (const line of lines) {
      const product = JSON.parse(line);
      expect(schema.product(product), product.id).toBe(true);
      const own = byId.get(product.id);
      expect(own).toBeDefined();
      expect(product.variants.map((variant: { id: string }) => variant.id)).toEqual(
        own?.variants.map((variant) => variant.id),
      );
      for (const [index, variant] of product.variants.entries()) {
        const source = own?.variants[index];
        // USD has two minor digits: "29.00" is 2900.
        expect(variant.price.amount).toBe(Math.round(Number(source?.price) * 100));
        expect(variant.availability.available).toBe(source?.availability === 'in_stock');
      }
    }
  });

  it('when one row of a shard is corrupted then check fails naming the shard', async () => {
    const copy = await makeSampleWorkspace();
    try {
      const built = await runCli(['build', '--quiet'], { cwd: copy.dir });
      expect(built.code, built.stderr).toBe(0);
      const shard = join(copy.dir, 'dist/feeds/openai/shards/products-0001.jsonl.gz');
      const rows = gunzipSync(await readFile(shard))
        .toString('utf8')
        .split('\n');
      const first = JSON.parse(rows[0] ?? '{}');
      first.price = '1.00 USD';
      rows[0] = JSON.stringify(first);
      const text = rows.join('\n');
      await writeFile(shard, gzipSync(text));
      // The manifest's digest is brought up to date too, so only the price itself can give it away.
      const manifestFile = join(copy.dir, 'dist/feeds/openai/manifest.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
      const entry = manifest.files.find((file: { path: string }) =>
        file.path.endsWith('products-0001.jsonl.gz'),
      );
      entry.content_sha256 = createHash('sha256').update(text).digest('hex');
      await writeFile(manifestFile, JSON.stringify(manifest));
      const check = await runCli(['check', 'dist'], { cwd: copy.dir });
      expect(check.code).toBe(1);
      const output = check.stdout + check.stderr;
      expect(output).toContain('feeds/openai/shards/products-0001.jsonl.gz');
      expect(output).toContain(`variant ${String(first.item_id)}: price is 1.00 USD`);
      expect(output).not.toContain('digest');
    } finally {
      await copy.cleanup();
    }
  }, 120_000);

  it('when one ACP line says a variant is available that the catalog has sold out then check fails', async () => {
    const copy = await makeSampleWorkspace();
    try {
      const built = await runCli(['build', '--quiet'], { cwd: copy.dir });
      expect(built.code, built.stderr).toBe(0);
      const file = join(copy.dir, 'dist/feeds/acp/products.jsonl');
      const products: CatalogProduct[] = JSON.parse(
        await readFile(join(copy.dir, 'dist/agent-catalog.json'), 'utf8'),
      ).products;
      const soldOut = products.find((product) => product.variants[0]?.availability !== 'in_stock');
      expect(soldOut, 'the sample has a product that is not in stock').toBeDefined();
      const lines = (await readFile(file, 'utf8')).split('\n').map((line) => {
        if (line === '') return line;
        const product = JSON.parse(line);
        if (product.id !== soldOut?.id) return line;
        product.variants[0].availability = { available: true, status: 'in_stock' };
        return JSON.stringify(product);
      });
      await writeFile(file, lines.join('\n'));
      const check = await runCli(['check', 'dist'], { cwd: copy.dir });
      expect(check.code).toBe(1);
      expect(check.stdout + check.stderr).toContain('feeds/acp/products.jsonl');
    } finally {
      await copy.cleanup();
    }
  }, 120_000);
});

describe('the OpenAI feed settings', () => {
  it('when the feed is turned on without its seller and return fields then the build exits 2 naming them', async () => {
    await ensureCompiled();
    const workspace = await makeSampleWorkspace();
    try {
      const file = join(workspace.dir, 'catalog.config.json');
      const config = JSON.parse(await readFile(file, 'utf8'));
      config.agent_feeds = { openai: { enabled: true, seller_name: 'Pomona' } };
      await writeFile(file, JSON.stringify(config));
      const run = await runCli(['build'], { cwd: workspace.dir });
      expect(run.code).toBe(2);
      for (const key of ['seller_url', 'return_policy', 'store_country']) {
        expect(run.stderr).toContain(`agent_feeds.openai.${key}`);
      }
      expect(run.stderr).not.toContain('agent_feeds.openai.seller_name');
    } finally {
      await workspace.cleanup();
    }
  }, 60_000);

  it('when the config says nothing of agent feeds then no feed file is published', () => {
    const artifacts = emitBundle(makeSamplePlan());
    expect(artifacts.filter((artifact) => artifact.path.startsWith('feeds/'))).toEqual([]);
  });
});

describe('the agent feeds of a store with variants, sale prices and missing images', () => {
  const config = makeSampleConfig({
    ...SAMPLE_CONFIG_INPUT,
    agent_feeds: {
      openai: { ...SAMPLE_OPENAI_FEED, shard_rows: 100 },
      acp: { enabled: true },
    },
  });
  const url = `${config.storefront_url}/products/trail-hoodie`;
  const hoodie: PlannedProduct = {
    sourceId: '700',
    record: buildProductRecord({
      name: 'Trail Hoodie',
      slug: 'trail-hoodie',
      url,
      description: 'A warm hoodie.',
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      currency: 'USD',
      purchase_url: url,
      id: '700',
      brand: 'Luma',
      tags: [],
      images: [{ url: 'https://cdn.pomona.example/hoodie.jpg' }],
      options: [
        { name: 'Colour', values: ['Red', 'Blue'] },
        { name: 'Size', values: ['S', 'XL'] },
      ],
      variants: [
        {
          id: '701',
          title: 'Red / S',
          url: `${url}?variant=701`,
          options: [
            { name: 'Colour', value: 'Red' },
            { name: 'Size', value: 'S' },
          ],
          sku: 'HOOD-R-S',
          price: '45.00',
          compare_at_price: '60.00',
          availability: 'in_stock',
          requires_shipping: true,
        },
        {
          id: '702',
          title: 'Blue / XL',
          options: [
            { name: 'Colour', value: 'Blue' },
            { name: 'Size', value: 'XL' },
          ],
          price: '0.00',
          availability: 'out_of_stock',
          requires_shipping: true,
        },
      ],
    }),
  };
  const noImage: PlannedProduct = {
    sourceId: '800',
    record: buildProductRecord({
      ...hoodie.record,
      name: 'Bare Tee',
      slug: 'bare-tee',
      id: '800',
      images: [],
      options: [],
      variants: [
        {
          id: '801',
          title: 'Bare Tee',
          options: [],
          price: '9.00',
          availability: 'in_stock',
          requires_shipping: true,
        },
      ],
    }),
  };
  const plan = makeSamplePlan({ config, products: [hoodie, noImage] });
  const artifacts = emitBundle(plan);
  const rows = (
    artifacts.find((artifact) => artifact.path === 'feeds/openai/shards/products-0001.jsonl.gz')?.body ?? ''
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

  it('when a product has variants then each is a row of its group, titled by its options, with its size and colour', () => {
    expect(rows.map((row) => row.item_id)).toEqual(['701', '702']);
    expect(rows.every((row) => row.group_id === '700')).toBe(true);
    expect(rows[0]).toMatchObject({
      title: 'Trail Hoodie - Red / S',
      color: 'Red',
      size: 'S',
      mpn: 'HOOD-R-S',
      brand: 'Luma',
    });
    expect(rows[0]?.url).toBe(`${url}?variant=701`);
  });

  it('when a variant is on sale then price is the regular price and sale_price what it costs now', () => {
    expect(rows[0]).toMatchObject({ price: '60.00 USD', sale_price: '45.00 USD' });
    expect(rows[1]?.sale_price).toBeUndefined();
  });

  it('when a variant costs nothing then it is not eligible for search, and a variant with no image is left out', () => {
    expect(rows[1]?.is_eligible_search).toBe(false);
    expect(rows.some((row) => row.item_id === '801')).toBe(false);
    for (const row of rows) expect(specFaults(row)).toEqual([]);
  });

  it('when the bundle is validated then the gate accepts both feeds', () => {
    expect(validateArtifacts(artifacts).filter((problem) => problem.rule === 'agent-feed')).toEqual([]);
  });

  it('when an ACP variant is on sale then its list price is the regular price in minor units', () => {
    const line = (artifacts.find((artifact) => artifact.path === 'feeds/acp/products.jsonl')?.body ?? '')
      .split('\n')
      .find((text) => text.includes('"700"'));
    const product = JSON.parse(line ?? '{}');
    expect(product.variants[0]).toMatchObject({
      price: { amount: 4500, currency: 'USD' },
      list_price: { amount: 6000, currency: 'USD' },
      variant_options: [
        { name: 'Colour', value: 'Red' },
        { name: 'Size', value: 'S' },
      ],
    });
  });
});
