import { describe, expect, it } from 'vitest';
import { canonicalJson, digestProduct, digestSettings } from '../../../generator/cache/product-digest.js';
import { makeSampleConfig, makeSampleProducts, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

const config = makeSampleConfig();
const [product] = makeSampleProducts(config);
if (product === undefined) throw new Error('the sample plan has no product');

describe('the build cache keys', () => {
  it('when object keys come in another order then the canonical JSON is the same', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } })).toBe(
      canonicalJson({ a: { c: 3, d: [2, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('when a product field its documents read changes then its digest changes', () => {
    const digest = digestProduct(product);
    expect(digestProduct({ ...product })).toBe(digest);
    expect(
      digestProduct({ ...product, record: { ...product.record, name: `${product.record.name}!` } }),
    ).not.toBe(digest);
    expect(digestProduct({ ...product, sourceId: `${product.sourceId}-2` })).not.toBe(digest);
    expect(digestProduct({ ...product, descriptionMarkdown: '**new**' })).not.toBe(digest);
  });

  it('when a product holds the same fields in another key order then its digest changes, as its documents do', () => {
    const { name, ...rest } = product.record;
    const reordered = { ...product, record: { ...rest, name } };
    expect(canonicalJson(reordered)).toBe(canonicalJson(product));
    // The catalog writes a record's keys in the order the record holds them.
    expect(JSON.stringify(reordered.record)).not.toBe(JSON.stringify(product.record));
    expect(digestProduct(reordered)).not.toBe(digestProduct(product));
  });

  it('when only the times change then the digest stays: they are what the cache dates, not content', () => {
    const digest = digestProduct(product);
    expect(digestProduct({ ...product, updatedAt: '2020-01-01T00:00:00.000Z' })).toBe(digest);
    expect(digestProduct({ ...product, changedAt: '2020-01-01T00:00:00.000Z' })).toBe(digest);
  });

  it('when the version, the format or a document setting changes then the settings digest changes', () => {
    const settings = digestSettings(config, '1.0.0', 1);
    expect(digestSettings(makeSampleConfig(), '1.0.0', 1)).toBe(settings);
    expect(digestSettings(config, '1.0.1', 1)).not.toBe(settings);
    expect(digestSettings(config, '1.0.0', 2)).not.toBe(settings);
    const renamed = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      merchant: { ...SAMPLE_CONFIG_INPUT.merchant, name: 'Another Shop' },
    });
    expect(digestSettings(renamed, '1.0.0', 1)).not.toBe(settings);
  });

  it('when only the shrink threshold changes then the settings digest stays: no document reads it', () => {
    const settings = digestSettings(config, '1.0.0', 1);
    const looser = { ...config, build: { ...config.build, shrink_threshold: 0.1 } };
    expect(digestSettings(looser, '1.0.0', 1)).toBe(settings);
  });
});
