/**
 * The Markdown pages' check keeps the catalog as digests, not as a map of its page names
 * and a set of the pages met: a page missing, one that differs, one stored twice and one no
 * product has are still each said, with the real strings, in the catalog's order.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { productMarkdownFile } from '../../../generator/emit/sitemap-pages.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { indexCatalogPages, markPages } from '../../../generator/validate/page-index.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';
import { editText } from './tamper.js';

// Pages as files (the live surface off), so one page is one artifact to take out or copy.
const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: false } });
const artifacts: readonly Artifact[] = emitBundle(
  makeSamplePlan({ config, products: makeManyProducts(config, 120) }),
);
const page = (slug: string) => productMarkdownFile(slug);

function markdownProblems(bundle: readonly Artifact[]): string[] {
  return validateArtifacts(bundle)
    .filter((problem) => problem.rule === 'markdown')
    .map((problem) => `${problem.path}: ${problem.message}`);
}

describe('the Markdown pages check on digests', () => {
  it('when the pages are as emitted then none is said', () => {
    expect(artifacts.some((artifact) => artifact.path === page('juice-0119'))).toBe(true);
    expect(markdownProblems(artifacts)).toEqual([]);
  });

  it('when a late page is missing and an early one states another price then both are said, in catalog order', () => {
    const without = artifacts.filter((artifact) => artifact.path !== page('juice-0110'));
    const broken = editText(without, page('juice-0003'), (body) =>
      body.replace(/^price: .*$/m, "price: '999.99'"),
    );
    expect(markdownProblems(broken)).toEqual([
      expect.stringMatching(/^kb\/products\/juice-0003\.md: price is 999\.99, the catalog says /),
      `${page('juice-0110')}: juice-0110 has no Markdown page`,
    ]);
  });

  it('when a page is stored twice then its last copy is read, and a page of no product is said once', () => {
    const first = artifacts.find((artifact) => artifact.path === page('juice-0050'));
    if (first === undefined) throw new Error('no page');
    const stray = { ...first, path: page('juice-9999') };
    const broken = [
      ...artifacts,
      stray,
      { ...first, body: first.body.replace(/^price: .*$/m, "price: '1.00'") },
      stray,
    ];
    expect(markdownProblems(broken)).toEqual([
      expect.stringMatching(/^kb\/products\/juice-0050\.md: price is 1\.00, the catalog says /),
      `${page('juice-9999')}: no catalog product has this page`,
    ]);
    // The first copy wrong and the last right: nothing is said.
    const mended = [{ ...first, body: first.body.replace(/^price: .*$/m, "price: '1.00'") }, ...artifacts];
    expect(markdownProblems(mended)).toEqual([]);
  });

  it('when two products share a slug then both are checked against their one page', () => {
    const index = indexCatalogPages(
      [
        { page: 'kb/products/a.md', fields: ['1', '2.00'] },
        { page: 'kb/products/a.md', fields: ['1', '3.00'] },
        { page: 'kb/products/b.md', fields: ['2', undefined] },
      ],
      (product) => product,
    );
    const marking = markPages(
      index,
      [
        ['kb/products/a.md', 'A'],
        ['kb/products/b.md', 'B'],
        ['kb/products/c.md', 'C'],
      ],
      (body) => (body === 'A' ? ['1', '2.00'] : ['2', 7]),
    );
    expect(marking).toEqual({ pages: 3, strays: [[2, 'kb/products/c.md']] });
    // The second product's price differs; the third states no price, so its page's is not checked.
    expect([0, 1, 2].map((at) => index.isMatched(at))).toEqual([true, false, true]);
    expect(index.hitsOnlyUnmatched('kb/products/a.md')).toBe(false);
  });

  it('when the catalog is indexed then it keeps at most 22 bytes a product', () => {
    const count = 10_000;
    const index = indexCatalogPages(
      Array.from({ length: count }, (_, at) => ({
        page: `kb/products/a-rather-long-product-slug-${at}.md`,
        fields: [
          String(at),
          `https://shop.example/products/a-rather-long-product-slug-${at}`,
          '12.00',
          'USD',
          'in_stock',
        ],
      })),
      (product) => product,
    );
    expect(index.byteLength).toBeLessThanOrEqual(22 * count);
  });
});
