/**
 * `check` holds every document to the catalog variant by variant: a bundle of products
 * with variants, sale prices and a digital product is written to a directory, one fact of
 * one variant is corrupted in one document, and the gate must refuse it naming that
 * document; each corruption is undone before the next.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { check, problemsOf, tamper } from '../../helpers/run-check.js';
import { makeVariedPlan } from '../../helpers/sample-plan.js';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';

const KB_MARKDOWN = 'kb/ridgeline-knowledge-base.md';

describe('check compares every variant of every document with the catalog', () => {
  let bundle: TempBundle;

  beforeAll(async () => {
    bundle = await writeTempBundle(emitBundle(makeVariedPlan()));
  });
  afterAll(async () => {
    await bundle?.cleanup();
  });

  async function expectRefused(
    file: string,
    from: string | RegExp,
    to: string,
    message: RegExp,
  ): Promise<void> {
    const path = join(bundle.dir, file);
    const original = await readFile(path, 'utf8');
    await tamper(bundle.dir, file, (body) => body.replace(from, to));
    try {
      const run = await check(bundle.dir, true);
      expect(run.status).toBe(1);
      expect(problemsOf(run)).toContainEqual(
        expect.objectContaining({ path: file, rule: 'consistency', message: expect.stringMatching(message) }),
      );
    } finally {
      await writeFile(path, original);
    }
  }

  test('when nothing was changed then every document agrees and check exits 0', async () => {
    const run = await check(bundle.dir, true);
    expect(problemsOf(run)).toEqual([]);
    expect(run.status).toBe(0);
  });

  test('when one variant price in the feed is changed then check fails naming the variant', async () => {
    // 7003-100 is the rope's second variant, 160.00: only that item changes.
    await expectRefused(
      'feed.xml',
      '<g:price>160.00 USD</g:price>',
      '<g:price>150.00 USD</g:price>',
      /7003-100: price/,
    );
  });

  test('when a variant sale price in the feed is changed then check fails', async () => {
    await expectRefused(
      'feed.xml',
      '<g:sale_price>49.00 USD</g:sale_price>',
      '<g:sale_price>39.00 USD</g:sale_price>',
      /7001-3: sale price/,
    );
  });

  test('when a sold-out variant is published in stock in the feed then check fails', async () => {
    await expectRefused(
      'feed.xml',
      /(<g:id>7001-2<\/g:id>[\s\S]*?<g:availability>)out_of_stock/,
      '$1in_stock',
      /7001-2: availability is in_stock/,
    );
  });

  test('when a variant link in the feed is changed then check fails', async () => {
    await expectRefused(
      'feed.xml',
      'trail-hoodie?variant=7001-3',
      'trail-hoodie?variant=7001-1',
      /7001-3: link/,
    );
  });

  test('when the feed charges shipping for the digital product then check fails', async () => {
    const shipping = '<g:shipping><g:country>US</g:country><g:price>5.00 USD</g:price></g:shipping>';
    await expectRefused(
      'feed.xml',
      '<g:id>7002</g:id>',
      `<g:id>7002</g:id>${shipping}`,
      /7002: ships nothing/,
    );
  });

  test('when a variant availability in kb/products.json is changed then check fails', async () => {
    await expectRefused(
      'kb/products.json',
      '"availability": "coming_soon"',
      '"availability": "in_stock"',
      /7003-100: availability/,
    );
  });

  test('when a variant row of the knowledge base table has another price then check fails', async () => {
    await expectRefused(KB_MARKDOWN, '| 160.00 USD |', '| 16.00 USD |', /7003-100: price is 16\.00 USD/);
  });

  test('when a variant row is missing from the knowledge base table then check fails naming it', async () => {
    await expectRefused(
      KB_MARKDOWN,
      /\| 7001-4 \|[^\n]*\n/,
      '',
      /trail-hoodie variant 7001-4 is in the catalog but missing here/,
    );
  });

  test('when a variant of the knowledge base is sold out there but not in the catalog then check fails', async () => {
    await expectRefused(
      KB_MARKDOWN,
      '| HD-L-R | 49.00 USD | 59.00 USD | in_stock |',
      '| HD-L-R | 49.00 USD | 59.00 USD | out_of_stock |',
      /7001-3: availability is out_of_stock/,
    );
  });
});
