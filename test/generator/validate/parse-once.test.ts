import { describe, expect, test } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { spillArtifact } from '../../../generator/compact-artifact.js';
import { readFeed } from '../../../generator/emit/feed-reading.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { readSitemap } from '../../../generator/emit/sitemap.js';
import { readJson } from '../../../generator/validate/bundle-layout.js';
import { collectSitemapUrls, readFeedItems } from '../../../generator/validate/consistency-sources.js';
import { checkJsonSyntax, validateArtifacts } from '../../../generator/validate/index.js';
import { bundleFilesOf, type DocumentReader, readOnce } from '../../../generator/validate/parse-once.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';
import { kinds, sampleArtifacts } from './tamper.js';

/** The sample bundle with a shipping policy, so feed items carry nested g:shipping elements too. */
function artifactsWithShipping(): Artifact[] {
  const config = makeSampleConfig({
    ...SAMPLE_CONFIG_INPUT,
    shipping: undefined,
    shipping_policy: {
      price: '5.00',
      free_shipping_threshold: '60',
      min_transit_days: 1,
      max_transit_days: 2,
    },
  });
  return emitBundle(makeSamplePlan({ config, products: makeFeedReadyProducts(config) }));
}

/** The same files with nothing attached: every document is read from its text. */
function asText(artifacts: readonly Artifact[]): Map<string, string> {
  return new Map(artifacts.map((artifact) => [artifact.path, artifact.body]));
}

describe('reading what the build serialised instead of parsing it back', () => {
  const artifacts = artifactsWithShipping();
  const seeded = bundleFilesOf(artifacts);
  const text = asText(artifacts);

  test('the feed reads the same from the tree it was built from as from its text', () => {
    expect(text.get('feed.xml')).toContain('<g:shipping>');
    const fromTree = readFeed(seeded);
    expect(fromTree?.ok).toBe(true);
    expect(fromTree).toEqual(readFeed(text));
  });

  test('the sitemap reads the same from its tree as from its text', () => {
    expect(readSitemap(seeded, 'sitemap.xml')).toEqual(readSitemap(text, 'sitemap.xml'));
  });

  test('the consistency facts of the feed and the sitemap are the same from the trees as from the text', () => {
    expect(readFeedItems(seeded)).toEqual(readFeedItems(text));
    expect(readFeedItems(seeded)?.items).toHaveLength(3);
    expect(readFeedItems(seeded)?.items[0]?.shipping).toHaveProperty('terms');
    expect(collectSitemapUrls(seeded)).toEqual(collectSitemapUrls(text));
  });

  test.each(['agent-catalog.json', 'agent-catalog/health.json', 'kb/products.json'])(
    '%s reads the same from its value as from its text',
    (path) => {
      expect(readJson(seeded, path)).toEqual(readJson(text, path));
    },
  );

  test('the emitted documents carry the value only for their own body', () => {
    const carrying = artifacts.filter((artifact) => artifact.serialisedFrom !== undefined);
    expect(carrying.map((artifact) => artifact.path)).toEqual(
      expect.arrayContaining(['agent-catalog.json', 'feed.xml', 'kb/products.json', 'sitemap.xml']),
    );
    for (const artifact of carrying) expect(artifact.serialisedFrom?.body).toBe(artifact.body);
  });
});

describe('a body changed after emitting is read from its text', () => {
  test('when the feed body is replaced in place then the stale tree is ignored and the gate refuses it', () => {
    const artifacts = sampleArtifacts();
    const feed = artifacts.find((artifact) => artifact.path === 'feed.xml');
    if (feed === undefined) throw new Error('no feed');
    feed.body = feed.body.replace('</channel>', '');
    expect(kinds(validateArtifacts(artifacts))).toContain('feed.xml xml');
  });

  test('when the catalog body is replaced in place then its new text is what the schemas see', () => {
    const artifacts = sampleArtifacts();
    const catalog = artifacts.find((artifact) => artifact.path === 'agent-catalog.json');
    if (catalog === undefined) throw new Error('no catalog');
    catalog.body = catalog.body.replace('"count": 3', '"count": "3"');
    expect(kinds(validateArtifacts(artifacts))).toContain('agent-catalog.json schema');
  });
});

describe('readOnce', () => {
  test('parses a document once per bundle and reader, and again for another bundle', () => {
    let parses = 0;
    const reader: DocumentReader<number> = {
      name: 'length',
      parse: (body) => {
        parses += 1;
        return body.length;
      },
    };
    const files = new Map([['a.txt', 'abc']]);
    expect(readOnce(files, 'a.txt', reader)).toBe(3);
    expect(readOnce(files, 'a.txt', reader)).toBe(3);
    expect(readOnce(files, 'missing.txt', reader)).toBeUndefined();
    expect(parses).toBe(1);
    readOnce(new Map(files), 'a.txt', reader);
    expect(parses).toBe(2);
  });

  test('a reading from the serialised value does not read the text: a parted catalog is not joined back', () => {
    let reads = 0;
    const spilled = spillArtifact(
      { path: 'big.json', mediaType: 'application/json', body: '', serialisedFrom: { body: '', value: [7] } },
      () => {
        reads += 1;
        return Buffer.from('[7]');
      },
    );
    const files = bundleFilesOf([spilled]);
    expect(readJson(files, 'big.json')).toEqual([7]);
    expect(checkJsonSyntax(files)).toEqual([]);
    expect(reads).toBe(0);
    const text: DocumentReader<string> = { name: 'text', parse: (body) => body };
    expect(readOnce(files, 'big.json', text)).toBe('[7]');
    expect(reads).toBe(1);
  });

  test('a reader without fromSerialised reads the text even when a value was serialised', () => {
    const files = bundleFilesOf([
      {
        path: 'a.json',
        mediaType: 'application/json',
        body: '[1]',
        serialisedFrom: { body: '[1]', value: [2] },
      },
    ]);
    const reader: DocumentReader<string> = { name: 'text', parse: (body) => body };
    expect(readOnce(files, 'a.json', reader)).toBe('[1]');
  });
});
