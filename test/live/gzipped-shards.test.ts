/**
 * Product and variant shards are stored gzipped (`_live/products/<n>.pack.gz`): the build
 * marks them for compression, the bytes on disk are gzip, and the handler reads them back
 * to the same answers as from their text (what a host that decoded them on the way hands
 * over); a shard that is not what it says is a broken bundle (503), never a wrong product.
 */
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeArtifact } from '../../generator/bundle-file-encoding.js';
import { gunzipText } from '../../live/gzip-text.js';
import { readLiveSettings } from '../../live/live-context.js';
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

async function searchAll(bundle: LiveBundle): Promise<unknown> {
  const response = await liveFetch(bundle)(`${bundle.baseUrl}/ucp/catalog/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pagination: { limit: 50 } }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const isShard = (path: string, kind: string) =>
  path.startsWith(`_live/${kind}/`) && path.endsWith('.pack.gz');

describe('gzipped product and variant shards', () => {
  it('when the sample is built then its product and variant shards are marked for gzip and written as gzip', () => {
    const shards = sample.artifacts.filter(
      (artifact) => isShard(artifact.path, 'products') || isShard(artifact.path, 'variants'),
    );
    expect(shards.some((artifact) => isShard(artifact.path, 'products'))).toBe(true);
    expect(shards.some((artifact) => isShard(artifact.path, 'variants'))).toBe(true);
    for (const shard of shards) {
      expect(shard.encoding, shard.path).toBe('gzip');
      const bytes = encodeArtifact(shard);
      expect([bytes[0], bytes[1]], shard.path).toEqual([0x1f, 0x8b]);
    }
    // Product pages' shards are served as they are: not compressed.
    const pages = sample.artifacts.filter((artifact) => artifact.path.startsWith('_live/pages/'));
    for (const page of pages) expect(page.encoding, page.path).toBeUndefined();
  });

  it('when the shards are read from their gzip bytes then every answer is the one their text gives', async () => {
    // The sample's readers hand over each shard's text, as a host that decoded it on the way
    // (Content-Encoding: gzip to a fetch) would: the answers from its bytes must be the same.
    const fromText = await searchAll(sample);
    const fromDisk = await searchAll(await bundleOver(sample, diskBytes(sample)));
    expect(fromDisk).toEqual(fromText);
    expect((fromText as { products: unknown[] }).products.length).toBeGreaterThan(0);
  });

  it('when a product shard is corrupt gzip then the handler says the catalog is not available', async () => {
    const files = diskBytes(sample);
    // Another build time: the handler keeps a bundle's data by it, and must read this one afresh.
    const manifest = JSON.parse(new TextDecoder().decode(files.get('_live/manifest.json'))) as {
      generated: string;
    };
    manifest.generated = '2026-11-21T12:00:01.000Z';
    files.set('_live/manifest.json', new TextEncoder().encode(JSON.stringify(manifest)));
    const broken = gzipSync('x').subarray(0, 12);
    for (const path of files.keys()) if (isShard(path, 'products')) files.set(path, broken);
    const response = await liveFetch(await bundleOver(sample, files))(
      `${sample.baseUrl}/ucp/catalog/search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pagination: { limit: 5 } }),
      },
    );
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(text).toContain('the catalog is not available');
    expect(text).not.toContain('at ');
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
