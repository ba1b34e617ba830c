import { describe, expect, it } from 'vitest';
import { artifactBytes } from '../../../generator/compact-artifact.js';
import { type DocumentPiece, PieceSequence } from '../../../generator/document-pieces.js';
import { readFeed } from '../../../generator/emit/feed-reading.js';
import { indentedJson, jsonChunksWithElements } from '../../../generator/emit/fragments.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { stableJson } from '../../../generator/emit/json.js';
import {
  buildXmlChunksWithElements,
  buildXmlDocument,
  buildXmlElementsAtDepth2,
} from '../../../generator/emit/xml-text.js';
import type { BuildPlan, PlannedProduct, PlannedProducts } from '../../../generator/plan.js';
import { productAt } from '../../../generator/product-store/planned-products.js';
import { bundleFilesOf } from '../../../generator/validate/parse-once.js';
import { bufferElements } from '../../helpers/buffer-elements.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  makeVariedPlan,
} from '../../helpers/sample-plan.js';

function joined(pieces: readonly DocumentPiece[]): Buffer {
  return Buffer.concat([...new PieceSequence(pieces).chunks()]);
}

const ODD_TEXTS = [
  'plain',
  'Ünïcödé — 中文 🍊',
  'quote " and \\ backslash',
  'line\nbreak',
  '<tag>&amp;</tag>',
];

describe('a JSON document assembled from its elements', () => {
  it('when the elements are laid out one level in then the bytes equal stableJson of the whole value', () => {
    const value = {
      head: 'first',
      count: ODD_TEXTS.length,
      products: ODD_TEXTS.map((text) => ({ text, n: [1, { deep: text }] })),
      tail: true,
    };
    const elements = value.products.map((item) => Buffer.from(indentedJson(item), 'utf8'));
    expect(joined(jsonChunksWithElements(value, 'products', bufferElements(elements))).toString('utf8')).toBe(
      stableJson(value),
    );
  });

  it('when there is no element then the bytes equal stableJson of the empty array', () => {
    const value = { merchant: { name: 'x' }, products: [] as unknown[] };
    expect(joined(jsonChunksWithElements(value, 'products', bufferElements([]))).toString('utf8')).toBe(
      stableJson(value),
    );
  });
});

describe('an XML document assembled from its elements', () => {
  const frameWith = (item: unknown[]) => ({
    rss: { '@_version': '2.0', channel: { title: 'Shop & Co <b>', item } },
  });
  const items = ODD_TEXTS.map((text, index) => ({
    title: text,
    'g:id': String(index),
    link: `https://shop.test/${index}`,
  }));

  it('when each element is built two levels down then the document equals buildXmlDocument of the whole tree', () => {
    const fragments = items.map((item) => Buffer.from(buildXmlElementsAtDepth2('item', [item]), 'utf8'));
    expect(
      joined(buildXmlChunksWithElements(frameWith, 'item', bufferElements(fragments))).toString('utf8'),
    ).toBe(buildXmlDocument(frameWith(items)));
  });

  it('when some products have no element then they leave no trace', () => {
    const fragments = [
      Buffer.alloc(0),
      Buffer.from(buildXmlElementsAtDepth2('item', items.slice(0, 2)), 'utf8'),
      Buffer.alloc(0),
    ];
    expect(
      joined(buildXmlChunksWithElements(frameWith, 'item', bufferElements(fragments))).toString('utf8'),
    ).toBe(buildXmlDocument(frameWith(items.slice(0, 2))));
  });

  it('when every product has an empty element then the document equals the tree with an empty list', () => {
    const fragments = [Buffer.alloc(0), Buffer.alloc(0)];
    expect(
      joined(buildXmlChunksWithElements(frameWith, 'item', bufferElements(fragments))).toString('utf8'),
    ).toBe(buildXmlDocument(frameWith([])));
  });

  it('when no product has an element then the document equals the tree with an empty list', () => {
    expect(joined(buildXmlChunksWithElements(frameWith, 'item', bufferElements([]))).toString('utf8')).toBe(
      buildXmlDocument(frameWith([])),
    );
  });
});

/** The plan's fragments answered from a map (as the build cache does), counting what is rendered. */
function remembering(store: Map<string, Buffer>) {
  let rendered = 0;
  const remember = (key: string, render: () => string): Buffer => {
    const known = store.get(key);
    if (known !== undefined) return known;
    rendered += 1;
    const bytes = Buffer.from(render(), 'utf8');
    store.set(key, bytes);
    return bytes;
  };
  return {
    get rendered() {
      return rendered;
    },
    bytes: (kind: string, product: PlannedProduct, render: () => string): Buffer =>
      remember(`${kind} ${product.record.slug}`, render),
    elements: (kind: string, products: PlannedProducts, render: (product: PlannedProduct) => string) => {
      const slug = (index: number) => productAt(products, index, kind).record.slug;
      return {
        length: products.length,
        slug,
        key: () => undefined,
        read: (index: number) =>
          remember(`${kind} ${slug(index)}`, () => render(productAt(products, index, kind))),
      };
    },
    runParts: () => undefined,
    keepRunParts: () => {},
    runLength: () => undefined,
    keepRunLength: () => {},
    whole: (
      kind: string,
      key: string,
      products: PlannedProducts,
      members: readonly number[],
      render: () => string,
    ): Buffer =>
      remember(
        `${kind} ${key} ${members.map((member) => productAt(products, member, kind).record.slug).join(' ')}`,
        render,
      ),
  };
}

function bundleBytes(plan: ReturnType<typeof makeSamplePlan>): Map<string, string> {
  return new Map(
    emitBundle(plan).map((artifact) => [artifact.path, artifactBytes(artifact).toString('base64')]),
  );
}

describe('a bundle emitted with remembered fragments', () => {
  for (const [name, makePlan] of [
    ['the juice sample', () => makeSamplePlan()],
    ['the varied store', () => makeVariedPlan()],
  ] as const) {
    it(`when ${name} is emitted again from remembered fragments then every file has the same bytes and nothing is rendered`, () => {
      const fresh = bundleBytes(makePlan());
      const store = new Map<string, Buffer>();
      const first = remembering(store);
      const again = remembering(store);
      const firstBytes = bundleBytes({ ...makePlan(), fragments: first });
      const againBytes = bundleBytes({ ...makePlan(), fragments: again });
      expect(firstBytes).toEqual(fresh);
      expect(againBytes).toEqual(fresh);
      expect(first.rendered).toBeGreaterThan(0);
      expect(again.rendered).toBe(0);
    });
  }

  it("when the feed is emitted from remembered fragments then the tree the gate reads equals a cold build's", () => {
    const config = makeSampleConfig();
    const makePlan = () => makeSamplePlan({ config, products: makeFeedReadyProducts(config) });
    const feedOf = (plan: BuildPlan) => {
      const feed = emitBundle(plan).find((artifact) => artifact.path === 'feed.xml');
      if (feed === undefined) throw new Error('the plan has a feed');
      return feed;
    };
    const store = new Map<string, Buffer>();
    feedOf({ ...makePlan(), fragments: remembering(store) });
    const again = remembering(store);
    const copied = readFeed(bundleFilesOf([feedOf({ ...makePlan(), fragments: again })]));
    expect(again.rendered).toBe(0);
    const cold = feedOf(makePlan());
    expect(copied?.ok).toBe(true);
    expect(copied).toEqual(readFeed(bundleFilesOf([cold])));
    expect(copied).toEqual(readFeed(new Map([['feed.xml', cold.body]])));
  });

  it('when a remembered fragment differs from what rendering gives then the document carries the remembered bytes', () => {
    const plan = makeSamplePlan();
    const [first] = plan.products;
    if (first === undefined) throw new Error('the sample has products');
    const store = new Map<string, Buffer>([
      [`record-json ${first.record.slug}`, Buffer.from(indentedJson({ marker: 'REMEMBERED' }), 'utf8')],
    ]);
    const catalog = emitBundle({ ...plan, fragments: remembering(store) }).find(
      (artifact) => artifact.path === 'agent-catalog.json',
    );
    expect(JSON.parse(catalog?.body ?? '{}').products[0]).toEqual({ marker: 'REMEMBERED' });
  });
});
