/**
 * The catalog's offers the feeds are held to are kept as digests and numbers in typed
 * arrays (issue 29): a bound on their bytes per variant and per product, and one copy per
 * bundle, the consistency check's, handed to the agent feeds' check.
 */
import { describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { takeCatalogOffers } from '../../../generator/validate/agent-feeds/offers-of-bundle.js';
import { checkConsistency } from '../../../generator/validate/consistency.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  makeVariedPlan,
} from '../../helpers/sample-plan.js';

describe('the catalog offers as digests', () => {
  it('when a catalog with variants is read then its offers take at most 28 bytes a variant and 24 a product', () => {
    const files = bundleFilesOf(emitBundle(makeVariedPlan()));
    const offers = takeCatalogOffers(files);
    if (offers === undefined) throw new Error('the varied catalog has variants');
    expect(offers.size).toBeGreaterThan(offers.places);
    expect(offers.byteLength).toBeLessThanOrEqual(28 * offers.size + 24 * offers.places);
  });

  it('when 300 products are read then the offers hold no more bytes than that bound', () => {
    const config = makeSampleConfig();
    const files = bundleFilesOf(
      emitBundle(makeSamplePlan({ config, products: makeManyProducts(config, 300) })),
    );
    const offers = takeCatalogOffers(files);
    expect(offers?.size).toBe(300);
    expect(offers?.byteLength).toBeLessThanOrEqual(28 * 300 + 24 * 300);
  });

  it('when the consistency check has run then the agent feeds take its offers, once', () => {
    const files = bundleFilesOf(emitBundle(makeVariedPlan()));
    expect(checkConsistency(files)).toEqual([]);
    const kept = takeCatalogOffers(files);
    const again = takeCatalogOffers(files);
    expect(kept).toBeDefined();
    // The kept copy was let go when taken: a second taker reads the catalog itself.
    expect(again).not.toBe(kept);
    expect(again?.size).toBe(kept?.size);
  });
});
