import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { FRAGMENT_FILE_NAME } from '../../../generator/cache/fragment-store.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { decodeCatalogFacts, encodeCatalogFacts } from '../../../generator/publish/catalog-facts.js';
import { FIXED_NOW, makeWorkspace, setUpstreamPrice, writingBuildOptions } from '../pipeline/helpers.js';

const LATER = new Date(FIXED_NOW.getTime() + 3_600_000);

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

function options(now: Date, parted = false): BuildOptions {
  return { ...writingBuildOptions(dir, now), ...(parted ? { partSizes: partSizesAround(1024) } : {}) };
}

/** Turns the live handler on, so the catalog is stored in parts (with small parts). */
async function servePartedDocuments(): Promise<void> {
  const file = join(dir, 'catalog.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...config, live: { enabled: true } }));
}

/** Rewrites the facts the build cache keeps of the last catalog. */
function rewriteKeptFacts(change: (price: string) => string): void {
  const db = new Database(join(dir, '.dist-cache', FRAGMENT_FILE_NAME), { fileMustExist: true });
  try {
    const row = db.prepare("SELECT digest, bytes FROM fragments WHERE kind = 'catalog-facts'").get() as
      | { digest: string; bytes: Buffer }
      | undefined;
    const facts = row === undefined ? undefined : decodeCatalogFacts(row.bytes);
    if (row === undefined || facts === undefined) throw new Error('no catalog facts were kept');
    const products = facts.products.map((fact) => ({ ...fact, price: change(fact.price) }));
    db.prepare("UPDATE fragments SET bytes = ? WHERE kind = 'catalog-facts'").run(
      encodeCatalogFacts({ ...facts, products }),
    );
  } finally {
    db.close();
  }
}

async function firstHandle(): Promise<string> {
  const data = JSON.parse(await readFile(join(dir, 'upstream/products.json'), 'utf8')) as {
    products: { handle: string }[];
  };
  return data.products[0]?.handle ?? '';
}

describe("the last catalog's facts kept in the build cache", () => {
  for (const parted of [false, true]) {
    const stored = parted ? 'in parts' : 'whole';
    it(`when the catalog (${stored}) is the one the facts were kept for then the summary takes them from the cache`, async () => {
      if (parted) await servePartedDocuments();
      await build(options(FIXED_NOW, parted));
      if (parted) expect(await readdir(join(dir, 'dist/_parts'))).not.toEqual([]);
      rewriteKeptFacts(() => '0.01');
      const handle = await firstHandle();
      await setUpstreamPrice(dir, handle, '77.00');
      const next = await build(options(LATER, parted));
      expect(next.changes.price).toContainEqual({ slug: handle, from: '0.01', to: '77.00' });
    });
  }

  it('when the catalog was edited by hand then its facts are read from it, not the cache', async () => {
    await build(options(FIXED_NOW));
    const file = join(dir, 'dist/agent-catalog.json');
    const catalog = JSON.parse(await readFile(file, 'utf8')) as {
      products: { slug: string; price: string }[];
    };
    const [first] = catalog.products;
    if (first === undefined) throw new Error('the sample has no product');
    const published = first.price;
    first.price = '1.23';
    await writeFile(file, JSON.stringify(catalog));
    const next = await build(options(LATER));
    expect(next.changes.price).toEqual([{ slug: first.slug, from: '1.23', to: published }]);
  });

  it('when the catalog is not JSON any more then the build warns, counts every product as added, and publishes', async () => {
    await build(options(FIXED_NOW));
    await writeFile(join(dir, 'dist/agent-catalog.json'), '{"products":[{"slug":');
    const next = await build(options(LATER));
    expect(next.warnings.map((warning) => warning.code)).toContain('PREVIOUS_UNREADABLE');
    expect(next.changes.added).toHaveLength([...recordsOf(next.plan.products)].length);
    expect(next.published).toBe(true);
  });

  it('when a part of the parted catalog was damaged then its kept facts are not used and the build warns', async () => {
    await servePartedDocuments();
    await build(options(FIXED_NOW, true));
    const manifest = JSON.parse(
      await readFile(join(dir, 'dist/_parts/agent-catalog.json/manifest.json'), 'utf8'),
    ) as { parts: { path?: string }[] };
    const part = manifest.parts.find((entry) => entry.path !== undefined)?.path;
    if (part === undefined) throw new Error('the catalog has no part file');
    const bytes = await readFile(join(dir, 'dist', part));
    await writeFile(join(dir, 'dist', part), Buffer.concat([bytes, Buffer.from(' ')]));
    const next = await build(options(LATER, true));
    expect(next.warnings.map((warning) => warning.code)).toContain('PREVIOUS_UNREADABLE');
  });
});
