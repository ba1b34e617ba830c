/**
 * Product and variant shards (`_live/products/<n>.pack.gz`) and every search index file
 * but the root (`_live/index/terms/<name>.bin.gz`, ...) are stored gzipped: the build
 * marks them for compression, the bytes on disk are gzip, and the handler reads them back
 * to the same answers as from their contents (what a host that decoded them on the way
 * hands over); a file that is not what it says is a broken bundle (503), never a wrong
 * product.
 */
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeArtifact } from '../../generator/bundle-file-encoding.js';
import { gunzipBytes, gunzipText, MAX_UNPACKED_BYTES } from '../../live/gzip-text.js';
import { readLiveSettings } from '../../live/live-context.js';
import { unpackingGzip } from '../../live/shells/node-gunzip.js';
import { assetFilesOf, buildSampleLiveBundle, type LiveBundle, liveFetch } from './live-bundle.js';

let sample: LiveBundle;

beforeAll(async () => {
  sample = await buildSampleLiveBundle();
});

/** The bundle's files as the writer puts them on disk: gzip artifacts compressed. */
function diskBytes(bundle: LiveBundle): Map<string, Uint8Array> {
  return new Map(bundle.artifacts.map((artifact) => [artifact.path, encodeArtifact(artifact)]));
}

async function bundleOver(bundle: LiveBundle, files: ReadonlyMap<string, Uint8Array>): Promise<LiveBundle> {
  const { readAsset, readAssetBytes } = assetFilesOf(files);
  const settings = await readLiveSettings(readAsset);
  if (!settings) throw new Error('no live manifest');
  return { ...bundle, context: { settings, readAsset, readAssetBytes } };
}

/** Searches reading every kind of index file: words (terms, vocabularies, ids), prices, availability. */
const SEARCHES = [
  { pagination: { limit: 50 } },
  { query: 'juice', pagination: { limit: 50 } },
  { query: 'gingr', pagination: { limit: 50 } },
  { filters: { price: { min: 300, max: 900 } }, pagination: { limit: 50 } },
  { filters: { price: { min: 500 }, available: true }, pagination: { limit: 50 } },
];

async function searchAll(bundle: LiveBundle): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const search of SEARCHES) {
    const response = await liveFetch(bundle)(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(search),
    });
    expect(response.status).toBe(200);
    answers.push(await response.json());
  }
  return answers;
}

const isIndexFile = (path: string) => path.startsWith('_live/index/') && path !== '_live/index/root.json';

const isShard = (path: string, kind: string) =>
  path.startsWith(`_live/${kind}/`) && path.endsWith('.pack.gz');

describe('gzipped product and variant shards and search index files', () => {
  it('when the sample is built then its shards and index files are marked for gzip and written as gzip', () => {
    const shards = sample.artifacts.filter(
      (artifact) =>
        isShard(artifact.path, 'products') ||
        isShard(artifact.path, 'variants') ||
        isIndexFile(artifact.path),
    );
    expect(shards.some((artifact) => isShard(artifact.path, 'products'))).toBe(true);
    expect(shards.some((artifact) => isShard(artifact.path, 'variants'))).toBe(true);
    const kinds = new Set(
      shards.filter((artifact) => isIndexFile(artifact.path)).map((artifact) => artifact.path.split('/')[2]),
    );
    expect(kinds).toEqual(new Set(['terms', 'vocab', 'rvocab', 'prices', 'facets', 'spans', 'ids']));
    for (const shard of shards) expect(shard.path, shard.path).toMatch(/\.gz$/);
    for (const shard of shards) {
      expect(shard.encoding, shard.path).toBe('gzip');
      const bytes = encodeArtifact(shard);
      expect([bytes[0], bytes[1]], shard.path).toEqual([0x1f, 0x8b]);
    }
    // Product pages' shards are served as they are: not compressed; nor is the index's root.
    const pages = sample.artifacts.filter(
      (artifact) => artifact.path.startsWith('_live/pages/') || artifact.path === '_live/index/root.json',
    );
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.encoding, page.path).toBeUndefined();
  });

  it('when the shards are read from their gzip bytes then every answer is the one their text gives', async () => {
    // The sample's readers hand over each shard's text, as a host that decoded it on the way
    // (Content-Encoding: gzip to a fetch) would: the answers from its bytes must be the same.
    const fromText = await searchAll(sample);
    const fromDisk = await searchAll(await bundleOver(sample, diskBytes(sample)));
    expect(fromDisk).toEqual(fromText);
    for (const answer of fromText)
      expect((answer as { products: unknown[] }).products.length).toBeGreaterThan(0);
  });

  it.each([
    ['a product shard', (path: string) => isShard(path, 'products'), {}],
    ['a term partition', (path: string) => path.startsWith('_live/index/terms/'), { query: 'juice' }],
    [
      'a price partition',
      (path: string) => path.startsWith('_live/index/prices/'),
      { filters: { price: { min: 1 } } },
    ],
  ])(
    'when %s is corrupt gzip then the handler says the catalog is not available',
    async (_, corrupt, search) => {
      const files = diskBytes(sample);
      // Another build time: the handler keeps a bundle's data by it, and must read this one afresh.
      const manifest = JSON.parse(new TextDecoder().decode(files.get('_live/manifest.json'))) as {
        generated: string;
      };
      manifest.generated = '2026-11-21T12:00:01.000Z';
      files.set('_live/manifest.json', new TextEncoder().encode(JSON.stringify(manifest)));
      const broken = gzipSync('x').subarray(0, 12);
      for (const path of files.keys()) if (corrupt(path)) files.set(path, broken);
      const response = await liveFetch(await bundleOver(sample, files))(
        `${sample.baseUrl}/ucp/catalog/search`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...search, pagination: { limit: 5 } }),
        },
      );
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(text).toContain('the catalog is not available');
      expect(text).not.toContain('at ');
    },
  );
});

describe('the Node shell unpacking .gz files with zlib', () => {
  const files = new Map<string, Uint8Array>();
  const read = unpackingGzip(async (path) => files.get(path));
  const bytes = Uint8Array.from({ length: 100_000 }, (_, at) => (at * 31) % 253);

  it('when a .gz file is gzip then the core is handed its contents; other files as they are', async () => {
    files.set('_live/index/terms/a.bin.gz', gzipSync(bytes));
    files.set('_live/index/root.json', gzipSync(bytes));
    expect(await read('_live/index/terms/a.bin.gz')).toEqual(bytes);
    expect(await read('_live/index/root.json')).toEqual(gzipSync(bytes));
    expect(await read('_live/index/terms/absent.bin.gz')).toBeUndefined();
  });

  it('when a .gz file does not unpack, or unpacks past the bound, then its bytes go to the core as they are', async () => {
    const cut = gzipSync(bytes).subarray(0, 40);
    files.set('_live/products/1.pack.gz', cut);
    expect(await read('_live/products/1.pack.gz')).toEqual(cut);
    const bomb = gzipSync(new Uint8Array(MAX_UNPACKED_BYTES + 1));
    files.set('_live/products/2.pack.gz', bomb);
    expect(await read('_live/products/2.pack.gz')).toEqual(bomb);
    // The core then says why: the bundle is broken, not the request.
    await expect(gunzipBytes(bomb)).rejects.toThrow(/more than/);
  });
});

describe('gunzipBytes', () => {
  it('when given gzip then it gives the bytes, whole across pieces; when given other bytes then those', async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, at) => (at * 7919) % 251);
    expect(await gunzipBytes(gzipSync(bytes))).toEqual(bytes);
    expect(await gunzipBytes(bytes)).toBe(bytes);
    await expect(gunzipBytes(gzipSync(bytes), 299_999)).rejects.toThrow(/more than 299999 bytes/);
  });
});

describe('gunzipText', () => {
  it('when given gzip then it gives the text; when given text then the text itself', async () => {
    const text = 'Piña & "Sunrise" <Limited> 🍍 抹茶\n'.repeat(500);
    expect(await gunzipText(gzipSync(text))).toBe(text);
    expect(await gunzipText(new TextEncoder().encode(text))).toBe(text);
  });

  it('when the gzip unpacks past its bound then it rejects, and up to it gives the text', async () => {
    const text = 'a'.repeat(10_000);
    await expect(gunzipText(gzipSync(text), 9_999)).rejects.toThrow(/more than 9999 bytes/);
    expect(await gunzipText(gzipSync(text), 10_000)).toBe(text);
  });

  it('when the gzip stream is cut short then it rejects', async () => {
    const cut = gzipSync('a longer text that will be cut before its end'.repeat(20)).subarray(0, 20);
    await expect(gunzipText(cut)).rejects.toThrow();
  });
});
