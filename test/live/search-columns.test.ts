/**
 * The filter columns' price order: written as variant numbers by price and then number
 * (so a range is one run and ties keep catalog order), read back the same on any
 * platform, and an index whose order is cut short, or that predates it, is a broken
 * bundle (the core's 503, no details), never a crash or a wrong answer; so is a partition
 * file missing or cut short, found only when a query reads it.
 */
import { describe, expect, it } from 'vitest';
import { artifactBytes } from '../../generator/compact-artifact.js';
import { base64ToBytes } from '../../live/base64-bytes.js';
import { buildColumnsFile, readUint32LittleEndian } from '../../live/search-columns-file.js';
import { buildSearchIndex } from '../../live/search-index.js';
import { buildSearchPartitions } from '../../live/search-partitions-file.js';
import { assetFilesOf, liveFetch } from './live-bundle.js';
import { builtIndexOf } from './partitioned-index.js';
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
    expect(() => buildSearchPartitions(builtIndexOf(file))).toThrow(/price order/);
  });
});

describe('a broken index in a bundle', () => {
  const broken = async (
    change: (files: Map<string, Uint8Array>) => void,
    body: unknown = { filters: { price: { min: 500, max: 700 } } },
  ) => {
    const bundle = await syntheticLiveBundle(40);
    const files = new Map(
      bundle.artifacts.flatMap((artifact) =>
        artifact.path.startsWith('_live/index/') ? [[artifact.path, artifactBytes(artifact)] as const] : [],
      ),
    );
    change(files);
    const index = assetFilesOf(files);
    const own = (path: string) => path.startsWith('_live/index/');
    const context = {
      settings: { ...bundle.context.settings, generated: `broken ${Math.random()}` },
      readAsset: (path: string) => (own(path) ? index.readAsset(path) : bundle.context.readAsset(path)),
      readAssetBytes: (path: string) =>
        own(path) ? index.readAssetBytes(path) : bundle.context.readAssetBytes(path),
    };
    const response = await liveFetch({ ...bundle, context })(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  /** Each `.bin` file of a folder, changed by `edit`. */
  const editEach = (
    files: Map<string, Uint8Array>,
    folder: string,
    edit: (bytes: Uint8Array) => Uint8Array,
  ) => {
    for (const [path, bytes] of files)
      if (path.startsWith(`_live/index/${folder}/`)) files.set(path, edit(bytes));
  };
  const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
  const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

  it('answers 503 without details when a price partition is cut short', async () => {
    const answer = await broken((files) => editEach(files, 'prices', (bytes) => bytes.subarray(0, 20)));
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/price|_live|\.ts:|\.js:/);
  });

  it('answers 503 when a price partition has bytes past its last step', async () => {
    const answer = await broken((files) =>
      editEach(files, 'prices', (bytes) => Uint8Array.from([...bytes, 1])),
    );
    expect(answer.status).toBe(503);
  });

  it('answers 503 when a term partition is cut short', async () => {
    const answer = await broken(
      (files) => editEach(files, 'terms', (bytes) => bytes.subarray(0, bytes.length - 1)),
      { query: 'ginger' },
    );
    expect(answer.status).toBe(503);
    expect(answer.text).not.toMatch(/ginger|_live|\.ts:|\.js:/);
  });

  it('answers 503 when the postings of a term name more products than their bytes hold', async () => {
    const answer = await broken(
      (files) =>
        editEach(files, 'terms', (bytes) => {
          // Each term's count (after the two header numbers) one higher, and an impact byte
          // more for each, so the file still adds up: only the postings are short.
          const terms = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
          const copy = Uint8Array.from([...bytes, ...new Uint8Array(terms).fill(1)]);
          const view = new DataView(copy.buffer);
          for (let term = 0; term < terms; term += 1) {
            view.setUint32(8 + 4 * term, view.getUint32(8 + 4 * term, true) + 1, true);
          }
          return copy;
        }),
      { query: 'ginger' },
    );
    expect(answer.status).toBe(503);
  });

  it('answers 503 when a facets file is cut short', async () => {
    const answer = await broken((files) => editEach(files, 'facets', (bytes) => bytes.subarray(4)), {
      filters: { categories: ['juice'] },
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 when a partition is missing', async () => {
    const answer = await broken((files) => {
      for (const path of files.keys()) if (path.startsWith('_live/index/prices/')) files.delete(path);
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 for an index written in format 5, its typed columns in JSON and base64', async () => {
    const answer = await broken((files) => {
      const root = JSON.parse(text(files.get('_live/index/root.json')) || '{}');
      files.set('_live/index/root.json', json({ ...root, format: 5 }));
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 when the ids of a block do not add up to their lengths', async () => {
    const answer = await broken((files) => {
      for (const [path, body] of files) {
        if (!path.startsWith('_live/index/ids/')) continue;
        const block = JSON.parse(text(body));
        block.ids.text = String(block.ids.text).slice(1);
        files.set(path, json(block));
      }
    });
    expect(answer.status).toBe(503);
  });

  it('answers 503 for an index written in the format before the partitions', async () => {
    const answer = await broken((files) => {
      const root = JSON.parse(text(files.get('_live/index/root.json')) || '{}');
      files.set('_live/index/root.json', json({ ...root, format: 3 }));
    });
    expect(answer.status).toBe(503);
  });
});
