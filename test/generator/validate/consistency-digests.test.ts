/**
 * The consistency reference keeps digests of the catalog's URLs, slugs and prices, not
 * their text: these tests break documents of a 300-product bundle and expect messages that
 * quote the catalog's own words (read again for just those products), in catalog order,
 * capped at 20 a document with the rest counted, and the catalog's duplicates named once.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { makeManyProducts, makeSampleConfig, makeSamplePlan } from '../../helpers/sample-plan.js';
import { editJson, editText, type Json, productAt } from './tamper.js';

const config = makeSampleConfig();
const artifacts: readonly Artifact[] = emitBundle(
  makeSamplePlan({ config, products: makeManyProducts(config, 300) }),
);
const CATALOG = 'agent-catalog.json';
const catalog = JSON.parse(artifacts.find((artifact) => artifact.path === CATALOG)?.body ?? '{}') as Json;

function consistencyOf(from: readonly Artifact[], path: string): string[] {
  return validateArtifacts(from)
    .filter((problem) => problem.path === path && problem.rule === 'consistency')
    .map((problem) => problem.message);
}

function field(index: number, name: string): string {
  return String(productAt(catalog, index)[name]);
}

describe('the consistency reference as digests', () => {
  it('when kb/products.json states another slug and price then both are named with the catalog text', () => {
    const broken = editJson(artifacts, 'kb/products.json', (kb) => {
      const record = productAt(kb, 150);
      record.slug = 'not-the-slug';
      record.price = '0.01';
    });
    expect(consistencyOf(broken, 'kb/products.json')).toEqual([
      `${field(150, 'slug')}: slug is not-the-slug, the catalog says ${field(150, 'slug')}`,
      `${field(150, 'slug')}: price is 0.01, the catalog says ${field(150, 'price')}`,
    ]);
  });

  it("when a kb/products.json record leaves out its product's last variant then that variant is named", () => {
    const variants = productAt(catalog, 120).variants as Json[];
    const last = variants.at(-1);
    if (last === undefined) throw new Error('the product has a variant');
    const broken = editJson(artifacts, 'kb/products.json', (kb) => {
      (productAt(kb, 120).variants as Json[]).pop();
    });
    expect(consistencyOf(broken, 'kb/products.json')).toEqual([
      `${field(120, 'slug')} variant ${String(last.id)} is in the catalog but missing here`,
    ]);
  });

  it('when the sitemap leaves out 25 products then the first 20 are named in catalog order and 5 counted', () => {
    const left = Array.from({ length: 25 }, (_, at) => 10 + at * 7);
    const broken = editText(artifacts, 'sitemap.xml', (text) => {
      let edited = text;
      for (const index of left) {
        const url = field(index, 'url');
        edited = edited.replace(new RegExp(`<url>\\s*<loc>${url}</loc>[\\s\\S]*?</url>`), '');
      }
      return edited;
    });
    expect(consistencyOf(broken, 'sitemap.xml')).toEqual([
      ...left
        .slice(0, 20)
        .map(
          (index) => `${field(index, 'slug')} (${field(index, 'url')}) is in the catalog but missing here`,
        ),
      '5 more differences not listed',
    ]);
  });

  it('when two products share a url and a slug then each duplicate is named once', () => {
    const broken = editJson(artifacts, CATALOG, (edited) => {
      const later = productAt(edited, 200);
      later.url = field(20, 'url');
      later.slug = field(20, 'slug');
    });
    const messages = consistencyOf(broken, CATALOG);
    expect(messages).toEqual([
      `two products have the url ${field(20, 'url')}`,
      `two products have the slug ${field(20, 'slug')}`,
    ]);
  });

  it('when the catalog is as emitted then nothing is said', () => {
    expect(validateArtifacts(artifacts)).toEqual([]);
  });
});
