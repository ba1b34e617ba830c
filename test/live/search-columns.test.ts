/**
 * The filter columns' price order: written as variant numbers by price and then number
 * (so a range is one run and ties keep catalog order), read back the same on any
 * platform, and an index whose order is cut short, or that predates it, is a broken
 * bundle (the core's 503, no details), never a crash or a wrong answer. And the loaded
 * index keeps typed arrays, not the file's text: at 1,000,000 products that text is tens of
 * megabytes an isolate cannot spare.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from '../../live/base64-bytes.js';
import { buildColumnsFile, readUint32LittleEndian } from '../../live/search-columns-file.js';
import { buildSearchIndex, loadSearchIndex } from '../../live/search-index.js';
import { liveFetch } from './live-bundle.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';
import { makeVariedRecords } from './varied-catalog.js';

describe('the price order', () => {
  it('lists every variant by price, ties by variant number, across products', () => {
    const file = buildColumnsFile([
      {
        category: 'Juice',
        offers: [
          { amount: 500, available: true },
          { amount: 200, available: false },
        ],
      },
      { category: undefined, offers: [] },
      { category: ' JUICE ', offers: [{ amount: 500, available: true }] },
      {
        category: 'Shots',
        offers: [
          { amount: 100, available: true },
          { amount: 200, available: true },
        ],
      },
    ]);
    // Variants are numbered 0, 1 (first product), 2 (third), 3, 4 (fourth).
    expect(Array.from(readUint32LittleEndian(base64ToBytes(file.price_order)))).toEqual([3, 1, 4, 0, 2]);
    expect(file.categories).toEqual(['juice', '', 'shots']);
    expect(file.category).toEqual([0, 1, 0, 2]);
    expect(file.available).toBe('10111');
  });

  it('reads the bytes as little-endian wherever they sit in a buffer', () => {
    const bytes = new Uint8Array([0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]).subarray(1);
    expect(Array.from(readUint32LittleEndian(bytes))).toEqual([1, 0xffffffff]);
    expect(() => readUint32LittleEndian(new Uint8Array(6))).toThrow(/cut short/);
  });

  it('refuses an index whose price order does not cover every variant', () => {
    const file = JSON.parse(JSON.stringify(buildSearchIndex(makeVariedRecords(20))));
    file.price_order = file.price_order.slice(0, 16);
    expect(() => loadSearchIndex(file)).toThrow(/price order/);
  });
});

describe('a broken index in a bundle', () => {
  const broken = async (change: (index: Record<string, unknown>) => void) => {
    const bundle = await syntheticLiveBundle(40);
    const manifest = JSON.parse((await bundle.context.readAsset('_live/manifest.json')) ?? '{}');
    const parts = await Promise.all(
      Array.from({ length: manifest.index_parts }, (_, part) =>
        bundle.context.readAsset(`_live/index/${part}.part`),
      ),
    );
    const index = JSON.parse(parts.join(''));
    change(index);
    const readAsset = async (path: string): Promise<string | undefined> => {
      if (path === '_live/manifest.json') return JSON.stringify({ ...manifest, index_parts: 1 });
      if (path === '_live/index/0.part') return JSON.stringify(index);
      return bundle.context.readAsset(path);
    };
    const settings = { ...bundle.context.settings, generated: `broken ${Math.random()}` };
    const response = await liveFetch({ ...bundle, context: { settings, readAsset } })(
      `${bundle.baseUrl}/ucp/catalog/search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filters: { price: { max: 500 } } }),
      },
    );
    return { status: response.status, text: await response.text() };
  };

  it('answers 503 without details when the price order is cut short', async () => {
    const answer = await broken((index) => {
      index.price_order = String(index.price_order).slice(0, 12);
    });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/price|_live|\.ts:|\.js:/);
  });

  it('answers 503 for an index written in the format before the price order', async () => {
    const answer = await broken((index) => {
      index.format = 2;
      delete index.price_order;
    });
    expect(answer.status).toBe(503);
  });
});

describe('what the loaded index keeps', () => {
  it('lets the file it was loaded from be collected, and still answers', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const load = () => {
      const file = JSON.parse(JSON.stringify(buildSearchIndex(makeVariedRecords(200))));
      return { index: loadSearchIndex(file), file: new WeakRef(file) };
    };
    const { index, file } = load();
    const before = Array.from(index.search({ text: 'juice', price: { max: 800 } }));
    // A WeakRef's target lives at least until the current job ends: collect after it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collect();
    expect(file.deref()).toBeUndefined();
    expect(before.length).toBeGreaterThan(0);
    expect(Array.from(index.search({ text: 'juice', price: { max: 801 } }))).toEqual(
      Array.from(index.search({ text: 'juice', price: { max: 800 } })),
    );
  });
});
