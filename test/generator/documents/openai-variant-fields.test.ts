/**
 * OpenAI's product feed for a product sold in variants (issue 31, item 11): `size` only
 * from a size option and only when it fits OpenAI's 20 characters, the variant fields
 * beside `group_id` (`listing_has_variations`, `variant_dict`), CSV cells that say what
 * the JSON Lines rows say, and plain-text fields in which a store's literal `<raw>` can
 * no longer be taken for an HTML tag. The gate refuses rows that break these rules.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { buildProductRecord } from '../../../record/build-record.js';
import type { ProductVariant } from '../../../record/product-record.js';
import {
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_OPENAI_FEED,
} from '../../helpers/sample-plan.js';

const config = makeSampleConfig({
  ...SAMPLE_CONFIG_INPUT,
  agent_feeds: {
    openai: { ...SAMPLE_OPENAI_FEED },
  },
});

function variant(id: string, pack: string, size: string): ProductVariant {
  return {
    id,
    title: `${pack} / ${size}`,
    options: [
      { name: 'Pack', value: pack },
      { name: 'Size', value: size },
    ],
    price: '12.00',
    availability: 'in_stock',
    requires_shipping: true,
  };
}

function product(id: string, slug: string, fields: Partial<PlannedProduct['record']>): PlannedProduct {
  const url = `${config.storefront_url}/products/${slug}`;
  return {
    sourceId: id,
    record: buildProductRecord({
      name: 'Lemonade',
      slug,
      url,
      description: 'Pressed lemons.',
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      currency: 'USD',
      purchase_url: url,
      id,
      tags: [],
      images: [{ url: `https://cdn.pomona.example/${slug}.jpg` }],
      options: [],
      variants: [],
      ...fields,
    }),
  };
}

const lemonade = product('900', 'lemonade', {
  description: 'Switch the press to <raw> mode for unfiltered juice; keep x < 5 mm pulp. <3',
  options: [
    { name: 'Pack', values: ['Single', '6-pack'] },
    { name: 'Size', values: ['16 fl oz (473 mL) PET bottle', '12 oz'] },
  ],
  variants: [variant('901', 'Single', '16 fl oz (473 mL) PET bottle'), variant('902', '6-pack', '12 oz')],
});
const single = product('950', 'single-shot', {
  name: 'Ginger <b>Shot</b>',
  variants: [{ ...variant('951', 'Single', '2 oz'), options: [] }],
});

const artifacts = emitBundle(makeSamplePlan({ config, products: [lemonade, single] }));
const JSONL = 'feeds/openai/shards/products-0001.jsonl.gz';
const CSV = 'feeds/openai/shards/products-0001.csv.gz';
const bodyOf = (path: string) => artifacts.find((artifact) => artifact.path === path)?.body ?? '';
const rows = bodyOf(JSONL)
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const rowOf = (id: string) => rows.find((row) => row.item_id === id) ?? {};

function feedProblems(files: Artifact[]): string[] {
  return validateArtifacts(files)
    .filter((problem) => problem.rule === 'agent-feed')
    .map((problem) => problem.message);
}

/** The bundle with the JSON Lines shard's rows changed (the CSV twin is left as it was). */
function withRows(change: (row: Record<string, unknown>) => Record<string, unknown>): Artifact[] {
  const body = `${rows.map((row) => JSON.stringify(change(row))).join('\n')}\n`;
  return artifacts.map((artifact) => (artifact.path === JSONL ? { ...artifact, body } : artifact));
}

describe("OpenAI's variant fields and plain text", () => {
  it('when a size option holds a packaging longer than 20 characters then size is left out, and a short one is kept', () => {
    expect(rowOf('901').size).toBeUndefined();
    expect(rowOf('902').size).toBe('12 oz');
  });

  it('when a product has several variants then each row says listing_has_variations and its option values', () => {
    expect(rowOf('901')).toMatchObject({
      group_id: '900',
      listing_has_variations: true,
      variant_dict: { Pack: 'Single', Size: '16 fl oz (473 mL) PET bottle' },
    });
    expect(rowOf('902').variant_dict).toEqual({ Pack: '6-pack', Size: '12 oz' });
    expect(rowOf('951').listing_has_variations).toBe(false);
    expect(rowOf('951').group_id).toBeUndefined();
    expect(rowOf('951').variant_dict).toBeUndefined();
  });

  it('when the CSV twin is read then variant_dict is the same object as JSON text', () => {
    const csvRows = parse(bodyOf(CSV), { columns: true }) as Record<string, string>[];
    const csv = csvRows.find((row) => row.item_id === '901');
    expect(JSON.parse(csv?.variant_dict ?? 'null')).toEqual(rowOf('901').variant_dict);
    expect(csv?.listing_has_variations).toBe('true');
  });

  it('when a plain-text field holds <raw> then it reads ‹raw›, and brackets no HTML reader takes for a tag stay', () => {
    expect(rowOf('901').description).toBe(
      'Switch the press to ‹raw› mode for unfiltered juice; keep x < 5 mm pulp. <3',
    );
    expect(rowOf('951').title).toBe('Ginger ‹b›Shot‹/b›');
  });

  it('when the bundle is validated then the gate accepts the feed', () => {
    expect(feedProblems(artifacts)).toEqual([]);
  });

  it('when a row has a size past 20 characters, a group without listing_has_variations, a malformed variant_dict or a tag in its text then the gate refuses it', () => {
    const cases: [string, (row: Record<string, unknown>) => Record<string, unknown>][] = [
      ['size', (row) => ({ ...row, size: '16 fl oz (473 mL) PET bottle' })],
      ['listing_has_variations', (row) => ({ ...row, listing_has_variations: undefined })],
      ['variant_dict', (row) => (row.group_id ? { ...row, variant_dict: { Pack: 6 } } : row)],
      ['description', (row) => ({ ...row, description: 'Switch to <raw> mode' })],
    ];
    for (const [field, change] of cases) {
      expect(
        feedProblems(withRows(change)).some((message) => message.includes(field)),
        field,
      ).toBe(true);
    }
  });
});
