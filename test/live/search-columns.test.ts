/**
 * The filter columns' price order: written as variant numbers by price and then number
 * (so a range is one run and ties keep catalog order), read back the same on any
 * platform, and an index whose order is cut short, or that predates it, is a broken
 * bundle (the core's 503, no details), never a crash or a wrong answer; so is a partition
 * file missing or cut short, found only when a query reads it.
 */
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from '../../live/base64-bytes.js';
import { buildColumnsFile, readUint32LittleEndian } from '../../live/search-columns-file.js';
import { buildSearchIndex } from '../../live/search-index.js';
import { buildSearchPartitions } from '../../live/search-partitions-file.js';
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

  it('is refused by the partition writer when it does not cover every variant', () => {
    const file = JSON.parse(JSON.stringify(buildSearchIndex(makeVariedRecords(20))));
    file.price_order = file.price_order.slice(0, 16);
    expect(() => buildSearchPartitions(file)).toThrow(/price order/);
  });
});

describe('a broken index in a bundle', () => {
  const broken = async (
    change: (files: Map<string, string>) => void,
    body: unknown = { filters: { price: { min: 500, max: 700 } } },
  ) => {
    const bundle = await syntheticLiveBundle(40);
    const files = new Map(
      bundle.artifacts.flatMap((artifact) =>
        artifact.path.startsWith('_live/index/') ? [[artifact.path, artifact.body] as const] : [],
      ),
    );
    change(files);
    const readAsset = async (path: string): Promise<string | undefined> =>
      path.startsWith('_live/index/') ? files.get(path) : bundle.context.readAsset(path);
    const settings = { ...bundle.context.settings, generated: `broken ${Math.random()}` };
    const response = await liveFetch({ ...bundle, context: { settings, readAsset } })(
      `${bundle.baseUrl}/ucp/catalog/search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    );
    return { status: response.status, text: await response.text() };
  };

  it('answers 503 without details when a price partition is cut short', async () => {
    const answer = await broken((files) => {
      for (const [path, body] of files) {
        if (!path.startsWith('_live/index/prices/')) continue;
        const partition = JSON.parse(body);
        partition.entries = String(partition.entries).slice(0, 6);
        files.set(path, JSON.stringify(partition));
      }
    });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/price|_live|\.ts:|\.js:/);
  });

  it('answers 503 when the postings of a term are cut short', async () => {
    const answer = await broken(
      (files) => {
        for (const [path, body] of files) {
          if (!path.startsWith('_live/index/terms/')) continue;
          const partition = JSON.parse(body);
          partition.postings = String(partition.postings).slice(0, 8);
          files.set(path, JSON.stringify(partition));
        }
      },
      { query: 'ginger' },
    );
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/ginger|_live|\.ts:|\.js:/);
  });

  it('answers 503 when a partition is missing', async () => {
    const answer = await broken((files) => {
      for (const path of files.keys()) if (path.startsWith('_live/index/prices/')) files.delete(path);
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 for an index written in format 4, its lists of strings not packed', async () => {
    const answer = await broken((files) => {
      const root = JSON.parse(files.get('_live/index/root.json') ?? '{}');
      files.set('_live/index/root.json', JSON.stringify({ ...root, format: 4 }));
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 when the ids of a block do not add up to their lengths', async () => {
    const answer = await broken((files) => {
      for (const [path, body] of files) {
        if (!path.startsWith('_live/index/ids/')) continue;
        const block = JSON.parse(body);
        block.ids.text = String(block.ids.text).slice(1);
        files.set(path, JSON.stringify(block));
      }
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 for an index written in the format before the partitions', async () => {
    const answer = await broken((files) => {
      const root = JSON.parse(files.get('_live/index/root.json') ?? '{}');
      files.set('_live/index/root.json', JSON.stringify({ ...root, format: 3 }));
    });
    expect(answer.status).toBe(503);
  });
});
