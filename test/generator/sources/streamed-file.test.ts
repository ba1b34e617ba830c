/**
 * A file source is read as a stream, a product at a time: real files in a temp dir, read
 * with a per-product bound far below the file's size, give the same records as the
 * whole-file read (`JSON.parse` of the text, then the normaliser), as a document and as
 * JSON Lines; a truncated file, a bad line and a product over the bound fail with the
 * file, the byte offset or line, and the limit.
 */
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { normaliseProducts } from '../../../generator/normalise/index.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { writeShopifyFixture } from '../../fixtures/upstream/write-products.js';
import { makeContext, makeUpstreamConfig, SITE_URL } from './upstream-setup.js';

/** About 5.4 MB of products.json: a thousand times the per-product bound below. */
const PRODUCTS = 4_000;
/** Each product is about 1.4 KB; the bound is what one product needs, not the file. */
const ITEM_BOUND = 4 * 1024;

let dir = '';
let documentPath = '';
let linesPath = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-catalog-stream-'));
  documentPath = join(dir, 'products.json');
  linesPath = join(dir, 'products.jsonl');
  await writeShopifyFixture(documentPath, PRODUCTS);
  await writeShopifyFixture(linesPath, PRODUCTS, { jsonLines: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function readStreamed(path: string, overrides: Parameters<typeof makeUpstreamConfig>[1] = {}) {
  return fetchUpstream(
    makeUpstreamConfig(path, { max_response_bytes: ITEM_BOUND, ...overrides }),
    makeContext(),
  );
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('a file source read as a stream', () => {
  test('when the file is a thousand times the per-product bound then every product is read, as the whole-file read gives it', async () => {
    expect((await stat(documentPath)).size).toBeGreaterThan(1000 * ITEM_BOUND);
    const streamed = await readStreamed(documentPath);
    const document = JSON.parse(await readFile(documentPath, 'utf8')) as { products: unknown[] };
    const whole = normaliseProducts(document.products, 'shopify', {
      siteUrl: SITE_URL,
      currency: 'USD',
      comingSoonTag: 'coming-soon',
    });
    expect(streamed.format).toBe('shopify');
    expect(streamed.products).toHaveLength(PRODUCTS);
    expect(streamed.products).toEqual(whole.products);
    expect(streamed.rejected).toEqual(whole.rejected);
  });

  test('when the same products are JSON Lines then the records are the same as from the document', async () => {
    const fromLines = await readStreamed(linesPath);
    const fromDocument = await readStreamed(documentPath);
    expect(fromLines.format).toBe('shopify');
    expect(fromLines.products).toEqual(fromDocument.products);
  });

  test('when a .ndjson file has blank lines and CRLF ends then its products are read in order', async () => {
    const products = makeShopifyProducts(3);
    const path = join(dir, 'crlf.ndjson');
    await writeFile(path, products.map((product) => JSON.stringify(product)).join('\r\n\r\n'));
    const result = await readStreamed(path);
    expect(result.products.map((product) => product.record.slug)).toEqual(products.map((p) => p.handle));
  });

  test('when a native catalog is streamed then its other members do not get in the way, before or after the list', async () => {
    const path = join(dir, 'native.json');
    const products = [{ name: 'A', slug: 'a', price: '1.00', currency: 'USD', availability: 'in_stock' }];
    await writeFile(path, JSON.stringify({ merchant: { name: 'M' }, products, count: 1, generated: '2026' }));
    const result = await readStreamed(path);
    expect(result.format).toBe('native');
    expect(result.products.map((product) => product.record.slug)).toEqual(['a']);
  });

  test('when the document is cut short then UPSTREAM_SHAPE names the file, the byte where it ends and the item', async () => {
    const path = join(dir, 'truncated.json');
    await writeFile(path, await readFile(documentPath));
    const size = Math.floor((await stat(documentPath)).size / 2);
    await truncate(path, size);
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_SHAPE') && error.details).toMatchObject({
      file: path,
      offset: size,
      item: expect.any(Number),
    });
  });

  test('when a product is not valid JSON then UPSTREAM_SHAPE names its index and where it starts', async () => {
    const path = join(dir, 'bad-item.json');
    const [first, second] = makeShopifyProducts(2).map((product) => JSON.stringify(product));
    await writeFile(path, `{"products":[${first},${second?.replace('"title":', '"title"')}]}`);
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_SHAPE') && error.details).toMatchObject({
      file: path,
      item: 1,
      offset: `{"products":[${first},`.length,
    });
  });

  test('when a JSON Lines file is cut inside its last line then UPSTREAM_SHAPE names the line', async () => {
    const path = join(dir, 'truncated.jsonl');
    const lines = makeShopifyProducts(3).map((product) => JSON.stringify(product));
    await writeFile(path, `${lines[0]}\n${lines[1]}\n${lines[2]?.slice(0, 100)}`);
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_SHAPE') && error.details).toMatchObject({ file: path, line: 3 });
  });

  test('when one product is over the bound then UPSTREAM_TOO_LARGE names the file, the item and the limit', async () => {
    const path = join(dir, 'one-big.json');
    const products = makeShopifyProducts(5);
    products[3] = {
      ...makeShopifyProducts(4)[3],
      body_html: 'x'.repeat(ITEM_BOUND),
    } as (typeof products)[number];
    await writeFile(path, JSON.stringify({ products }));
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE') && error.details).toMatchObject({
      file: path,
      item: 3,
      maxBytes: ITEM_BOUND,
      field: 'upstream.max_response_bytes',
    });
  });

  test('when one line of a JSON Lines file is over the bound then UPSTREAM_TOO_LARGE names the line and the limit', async () => {
    const path = join(dir, 'one-big.jsonl');
    const products = makeShopifyProducts(3).map((product) => JSON.stringify(product));
    products[1] = JSON.stringify({ ...makeShopifyProducts(2)[1], body_html: 'x'.repeat(ITEM_BOUND) });
    await writeFile(path, products.join('\n'));
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE') && error.details).toMatchObject({
      line: 2,
      maxBytes: ITEM_BOUND,
    });
  });

  test('when the build has given up on the read (its deadline passed) then the read stops instead of going on to the end', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    const upstream = makeUpstreamConfig(documentPath, { max_response_bytes: ITEM_BOUND });
    const error = await failureOf(fetchUpstream(upstream, { ...makeContext(), signal: controller.signal }));
    expect(error).toEqual(new Error('deadline'));
  });

  test('when a .json file holds JSON Lines then UPSTREAM_SHAPE points at the second value', async () => {
    const path = join(dir, 'lines-named-json.json');
    const lines = makeShopifyProducts(2).map((product) => JSON.stringify(product));
    await writeFile(path, lines.join('\n'));
    const error = await failureOf(readStreamed(path));
    expect(isCatalogError(error, 'UPSTREAM_SHAPE') && error.details).toMatchObject({
      offset: (lines[0]?.length ?? 0) + 1,
    });
  });
});
