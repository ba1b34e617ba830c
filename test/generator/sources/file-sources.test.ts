import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import { makeNativeCatalog } from '../../helpers/upstream-server.js';
import { makeContext, makeUpstreamConfig } from './upstream-setup.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/upstream/', import.meta.url));

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-catalog-upstream-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fetchUpstream from a file', () => {
  test('when a native catalog file is given relative to the config then it is read without any request', async () => {
    await writeFile(join(dir, 'upstream.json'), JSON.stringify(makeNativeCatalog(5)));
    const result = await fetchUpstream(makeUpstreamConfig('upstream.json'), makeContext({ configDir: dir }));
    expect(result).toMatchObject({ format: 'native', requests: 0, source: join(dir, 'upstream.json') });
    expect(result.products).toHaveLength(5);
  });

  test('when a bare array of products is given then it is read as native', async () => {
    const catalog = makeNativeCatalog(3);
    await writeFile(join(dir, 'list.json'), JSON.stringify(catalog.products));
    const result = await fetchUpstream(makeUpstreamConfig('list.json'), makeContext({ configDir: dir }));
    expect(result.format).toBe('native');
    expect(result.products).toHaveLength(3);
  });

  test('when a saved Shopify page is given then its shape is detected and bad products are rejected', async () => {
    const result = await fetchUpstream(
      makeUpstreamConfig(join(FIXTURES, 'shopify-page.json')),
      makeContext(),
    );
    expect(result.format).toBe('shopify');
    expect(
      result.products.map((product) => [
        product.record.slug,
        product.record.price,
        product.record.availability,
      ]),
    ).toEqual([
      ['ginger-zinger-shot', '3.50', 'in_stock'],
      ['winter-citrus', '9.00', 'coming_soon'],
    ]);
    expect(result.products[0]?.record.description).toBe('Fiery ginger & lemon.\n\n2 fl oz (59 mL).');
    expect(result.rejected.map((rejected) => rejected.id)).toEqual(['8123456789014']);
  });

  test('when a saved WooCommerce page is given then its shape is detected', async () => {
    const result = await fetchUpstream(
      makeUpstreamConfig(join(FIXTURES, 'woocommerce-page.json')),
      makeContext(),
    );
    expect(result.format).toBe('woocommerce');
    expect(result.products[0]?.record).toMatchObject({
      price: '8.99',
      availability: 'out_of_stock',
      description: 'Sweet carrot & turmeric.',
    });
  });

  test('when the file is missing then the fetch fails with UPSTREAM_NETWORK', async () => {
    const error = await fetchUpstream(
      makeUpstreamConfig('missing.json'),
      makeContext({ configDir: dir }),
    ).catch((caught: unknown) => caught);
    expect(isCatalogError(error) && error.code).toBe('UPSTREAM_NETWORK');
  });

  test.each([
    ['not JSON', '{"products": [', {}],
    ['of an unknown shape', '{"items": []}', {}],
    ['a Shopify page of the wrong shape', '[1, 2]', { format: 'shopify' as const }],
  ])('when the file is %s then the fetch fails with UPSTREAM_SHAPE', async (_case, text, format) => {
    await writeFile(join(dir, 'bad.json'), text);
    const error = await fetchUpstream(
      makeUpstreamConfig('bad.json', format),
      makeContext({ configDir: dir }),
    ).catch((caught: unknown) => caught);
    expect(isCatalogError(error) && error.code).toBe('UPSTREAM_SHAPE');
  });

  test('when the file is larger than max_response_bytes but each product is smaller then the whole file is read', async () => {
    await writeFile(join(dir, 'big.json'), JSON.stringify(makeNativeCatalog(50)));
    const upstream = makeUpstreamConfig('big.json', { max_response_bytes: 1_000 });
    const result = await fetchUpstream(upstream, makeContext({ configDir: dir }));
    expect(result.products).toHaveLength(50);
  });

  test('when one product is larger than max_response_bytes then the fetch fails with UPSTREAM_TOO_LARGE naming it', async () => {
    const catalog = makeNativeCatalog(3);
    const products = catalog.products as Record<string, unknown>[];
    products[1] = { ...products[1], description: 'x'.repeat(2_000) };
    await writeFile(join(dir, 'big.json'), JSON.stringify(catalog));
    const upstream = makeUpstreamConfig('big.json', { max_response_bytes: 1_000 });
    const error = await fetchUpstream(upstream, makeContext({ configDir: dir })).catch(
      (caught: unknown) => caught,
    );
    expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE') && error.details).toMatchObject({
      file: join(dir, 'big.json'),
      item: 1,
      maxBytes: 1_000,
      field: 'upstream.max_response_bytes',
    });
  });
});
