/**
 * The product pages a live bundle packs into the handler's shards, served by preview (the
 * Node shell, as `serve` runs it) over real HTTP, against the same catalog built with the
 * live surface off, where each page is a static file: every page answers with the same
 * bytes and the same headers (entity tag included), `HEAD` and `If-None-Match` alike, and
 * a page no product has, or a method a file does not take, gets the same answer too. The
 * catalog has non-Latin, accented and emoji slugs, which travel percent-encoded.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import { type PreviewServer, startPreviewServer } from '../../../generator/preview/server.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { FIXED_NOW, makeWorkspace } from '../pipeline/helpers.js';
import { storeBuildOptions, writeStoreConfig, writeStoreProducts } from '../pipeline/synthetic-store.js';

const PRODUCTS = 120;
/** Handles a careless server would mangle (the catalog keeps those its slug rules allow). */
const ODD_HANDLES = ['果汁-ginger', 'piña-colada', 'blood-orange-🍊', "o'clock-green"];
/** Headers of the connection, not of the document. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  body: string;
  headers: [string, string][];
}

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) headers.push([name, value]);
  });
  headers.sort();
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString('base64'), headers };
}

describe('product pages packed into shards, served by preview', () => {
  let workspace: { dir: string; cleanup: () => Promise<void> } | undefined;
  const servers: Record<'packed' | 'files', PreviewServer | undefined> = {
    packed: undefined,
    files: undefined,
  };
  let slugs: string[] = [];

  beforeAll(async () => {
    workspace = await makeWorkspace();
    const { dir } = workspace;
    const products = makeShopifyProducts(PRODUCTS);
    ODD_HANDLES.forEach((handle, index) => {
      const product = products[index * 7];
      if (product) product.handle = handle;
    });
    await writeStoreProducts(dir, products);
    for (const live of [true, false]) {
      const name = live ? 'packed' : 'files';
      // One merchant, two configs: only where the pages are stored differs.
      const config = await writeStoreConfig(dir, 'packed', live, `${name}.config.json`);
      await build(storeBuildOptions(dir, config, { out: name, now: FIXED_NOW }));
      servers[name] = await startPreviewServer({ dir: join(dir, name), port: 0 });
    }
    const catalog = JSON.parse(await readFile(join(dir, 'files', 'agent-catalog.json'), 'utf8')) as {
      products: { slug: string }[];
    };
    slugs = catalog.products.map((product) => product.slug);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server?.close()));
    await workspace?.cleanup();
  });

  const urls = (): { packed: string; files: string } => {
    if (!servers.packed || !servers.files) throw new Error('not served');
    return { packed: servers.packed.url, files: servers.files.url };
  };

  it('when the live surface is on then no page is a file: kb/products/ holds none', async () => {
    const dir = workspace?.dir ?? '';
    await expect(readdir(join(dir, 'packed', 'kb', 'products'))).rejects.toThrow();
    expect(await readdir(join(dir, 'files', 'kb', 'products'))).toHaveLength(slugs.length);
    // Some slugs are not ASCII: the pages' paths are percent-encoded.
    expect(slugs.filter((slug) => encodeURIComponent(slug) !== slug).length).toBeGreaterThan(0);
  });

  it('when every page is fetched with GET and HEAD then both bundles answer 200 with the same bytes and headers', async () => {
    const { packed, files } = urls();
    for (const slug of slugs) {
      const path = `/kb/products/${encodeURIComponent(slug)}.md`;
      for (const method of ['GET', 'HEAD']) {
        const reference = await ask(files, path, { method });
        expect(reference.status, `${method} ${path}`).toBe(200);
        expect(await ask(packed, path, { method }), `${method} ${path}`).toEqual(reference);
      }
    }
  });

  it('when a page is asked again with its ETag then both answer 304 with the same headers, and a stale tag gets the page', async () => {
    const { packed, files } = urls();
    for (const slug of [slugs[0] ?? '', ...slugs.filter((slug) => encodeURIComponent(slug) !== slug)]) {
      const path = `/kb/products/${encodeURIComponent(slug)}.md`;
      const etag = (await fetch(`${files}${path}`)).headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[^"]+"$/);
      const fresh = { headers: { 'if-none-match': `W/"stale", ${etag}` } };
      const reference = await ask(files, path, fresh);
      expect(reference.status).toBe(304);
      expect(await ask(packed, path, fresh)).toEqual(reference);
      const stale = { headers: { 'if-none-match': '"stale"' } };
      expect((await ask(packed, path, stale)).status).toBe(200);
    }
  });

  it('when a page no product has, or a page path of another shape, is fetched then both answer the same 404 (a broken path the same 400)', async () => {
    const { packed, files } = urls();
    for (const path of [
      '/kb/products/no-such-juice.md',
      `/kb/products/${encodeURIComponent(slugs[1] ?? '')}`,
      `/kb/products/${encodeURIComponent(slugs[1] ?? '')}.md/`,
      '/kb/products/',
    ]) {
      const reference = await ask(files, path);
      expect(reference.status, path).toBe(404);
      expect(await ask(packed, path), path).toEqual(reference);
    }
    // A path that is not percent-encoding is the client's mistake either way.
    const broken = '/kb/products/%E0%A4%A.md';
    expect(await ask(packed, broken)).toEqual(await ask(files, broken));
  });

  it('when a page is sent a POST then both answer 405 allowing GET and HEAD', async () => {
    const { packed, files } = urls();
    const path = `/kb/products/${encodeURIComponent(slugs[2] ?? '')}.md`;
    const reference = await ask(files, path, { method: 'POST', body: 'x' });
    expect(reference.status).toBe(405);
    expect(await ask(packed, path, { method: 'POST', body: 'x' })).toEqual(reference);
  });
});
