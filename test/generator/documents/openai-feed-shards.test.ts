import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedFragments } from '../../../generator/cache/cached-fragments.js';
import { openFragmentStore } from '../../../generator/cache/fragment-store.js';
import { compactArtifact, knownTextDigestOf } from '../../../generator/compact-artifact.js';
import { emitOpenAiFeed } from '../../../generator/emit/agent-feeds/openai-feed.js';
import {
  decodeProductRows,
  encodeProductRows,
} from '../../../generator/emit/agent-feeds/openai-rows-fragment.js';
import { planBuild } from '../../../generator/pipeline.js';
import type { PlannedProduct, ProductFragments } from '../../../generator/plan.js';
import { buildProductRecord } from '../../../record/build-record.js';
import {
  makeSampleConfig,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_GENERATED,
  SAMPLE_OPENAI_FEED,
} from '../../helpers/sample-plan.js';

const config = makeSampleConfig({
  ...SAMPLE_CONFIG_INPUT,
  agent_feeds: {
    openai: { ...SAMPLE_OPENAI_FEED, shard_rows: 100 },
  },
});

/** A shirt has no ingredients, nutrition, benefits or certifications. */
const NOT_FOOD = { ingredients: null, nutrition: null, benefits: null, certifications: null };

/** Product `n` with `variants` variants (each a row: the product has an image), or none with `images: false`. */
function product(n: number, variants: number, price = '10.00', images = true): PlannedProduct {
  const slug = `shirt-${String(n).padStart(3, '0')}`;
  const url = `${config.storefront_url}/products/${slug}`;
  return {
    sourceId: String(n),
    record: buildProductRecord({
      name: `Shirt ${n}`,
      slug,
      url,
      description: `A shirt, "number" ${n}, with a comma, and a line\nbreak — 👕.`,
      ...NOT_FOOD,
      currency: 'USD',
      purchase_url: url,
      id: String(n),
      tags: [],
      images: images ? [{ url: `https://cdn.pomona.example/${slug}.jpg` }] : [],
      options: [{ name: 'Size', values: ['S', 'M', 'L'].slice(0, variants) }],
      variants: ['S', 'M', 'L'].slice(0, variants).map((size, index) => ({
        id: `${n}-${index}`,
        title: size,
        options: [{ name: 'Size', value: size }],
        price,
        availability: 'in_stock' as const,
        requires_shipping: true,
      })),
    }),
  };
}

/** 120 products of 1 to 3 rows: 240 rows, three shards of 100 rows at most. */
function store(): PlannedProduct[] {
  return Array.from({ length: 120 }, (_, n) => product(n, (n % 3) + 1));
}

/** The feed's files by path: each text, and the digest the emitter gave for it without reading it. */
function feedOf(products: PlannedProduct[], fragments?: ProductFragments) {
  const plan = planBuild({
    config,
    products,
    articles: [],
    generated: SAMPLE_GENERATED,
    ...(fragments !== undefined ? { fragments } : {}),
  });
  const files = new Map<string, { body: string; known?: string }>();
  for (const artifact of emitOpenAiFeed(plan)) {
    const compact = compactArtifact(artifact);
    const known = knownTextDigestOf(compact);
    files.set(artifact.path, { body: compact.body, ...(known !== undefined ? { known } : {}) });
  }
  return files;
}

function bodies(files: ReturnType<typeof feedOf>): Map<string, string> {
  return new Map([...files].map(([path, { body }]) => [path, body]));
}

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openai-shards-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** One build's feed from the fragment file in `dir`, with how many fragments were rendered. */
function cachedRun(products: PlannedProduct[]) {
  const fragmentStore = openFragmentStore(dir, 'settings');
  const fragments = cachedFragments(fragmentStore);
  const files = feedOf(products, fragments);
  fragmentStore.markValidated();
  fragmentStore.close();
  return { files, rendered: fragments.counts.rendered };
}

describe("the OpenAI feed's shards from cached rows", () => {
  it('when rows are cut into shards then each shard holds its rows and its digest is its text', () => {
    const files = feedOf(store());
    const manifest = JSON.parse(files.get('feeds/openai/manifest.json')?.body ?? '{}') as {
      row_count: number;
      files: { path: string; rows: number; content_sha256: string }[];
    };
    expect(manifest.row_count).toBe(240);
    expect(manifest.files.map((file) => file.rows)).toEqual([100, 100, 100, 100, 40, 40]);
    for (const file of manifest.files) {
      const body = files.get(file.path.slice(1))?.body ?? '';
      expect(createHash('sha256').update(body, 'utf8').digest('hex')).toBe(file.content_sha256);
      expect(files.get(file.path.slice(1))?.known).toBe(file.content_sha256);
    }
    const jsonl = [1, 2, 3].map((n) => files.get(`feeds/openai/shards/products-000${n}.jsonl.gz`)?.body);
    const ids = jsonl
      .flatMap((body) => (body ?? '').split('\n').filter(Boolean))
      .map((line) => {
        return (JSON.parse(line) as { item_id: string }).item_id;
      });
    expect(ids).toHaveLength(240);
    expect(new Set(ids).size).toBe(240);
  });

  it('when one product changed then only its shard is made again, and the feed is the one a cold build makes', () => {
    const first = cachedRun(store());
    expect(bodies(first.files)).toEqual(bodies(feedOf(store())));
    const changed = store().map((item, n) => (n === 60 ? product(60, 1, '99.00') : item));
    const again = cachedRun(changed);
    expect(bodies(again.files)).toEqual(bodies(feedOf(changed)));
    // The product's rows, then its shard (both formats in one row).
    expect(again.rendered).toBe(2);
  });

  it('when a product loses its rows then the later shards start at other rows and are made again', () => {
    cachedRun(store());
    const fewer = store().map((item, n) => (n === 10 ? product(10, 2, '10.00', false) : item));
    const again = cachedRun(fewer);
    expect(bodies(again.files)).toEqual(bodies(feedOf(fewer)));
    // Every shard; the product itself gives no row, so its rows are never asked for.
    expect(again.rendered).toBe(3);
  });

  it('when a product whose rows span two shards changed then both shards are made again, and no other', () => {
    // Products 0 to 49 hold rows 0 to 101: product 50's three rows are rows 99, 100 and 101.
    cachedRun(store());
    const changed = store().map((item, n) => (n === 50 ? product(50, 3, '77.00') : item));
    const again = cachedRun(changed);
    expect(bodies(again.files)).toEqual(bodies(feedOf(changed)));
    // The product's rows once, though both shards take some, then the two shards.
    expect(again.rendered).toBe(3);
  });
});

describe("a product's rows as the fragment file keeps them", () => {
  it('when rows hold multi-byte characters and line breaks then any run of them reads back exactly', () => {
    const rows = [
      ['{"a":"é"}\n', '"x\ny",1\n'],
      ['{"b":"👕"}\n', 'z,2\n'],
      ['{"c":3}\n', '"q ""r""",3\n'],
    ] as const;
    const decoded = decodeProductRows(Buffer.from(encodeProductRows(rows), 'utf8'));
    expect(decoded.count).toBe(3);
    expect(decoded.json(1, 3).toString('utf8')).toBe('{"b":"👕"}\n{"c":3}\n');
    expect(decoded.csv(0, 2).toString('utf8')).toBe('"x\ny",1\nz,2\n');
    expect(decoded.json(0, 0).length).toBe(0);
    expect(decodeProductRows(Buffer.from(encodeProductRows([]), 'utf8')).count).toBe(0);
  });

  it('when the bytes are not such a fragment then reading them is refused', () => {
    expect(() => decodeProductRows(Buffer.from('[["{}\\n","a\\n"]]'))).toThrow(TypeError);
    expect(() => decodeProductRows(Buffer.from('1 3 2\n{}\n'))).toThrow(TypeError);
  });
});
