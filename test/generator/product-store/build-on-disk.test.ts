/**
 * A build whose products are kept on disk (the path a big catalog takes) writes the bundle
 * a build holding them in the heap writes, byte for byte, cold and after a change, and
 * leaves no products file behind.
 */
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BuildOptions,
  type BuildResult,
  build,
  PRODUCTS_ON_DISK_FROM,
} from '../../../generator/build.js';
import {
  FIXED_NOW,
  FIXTURES_DIR,
  hashTree,
  makeWorkspace,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const AN_HOUR_LATER = new Date(FIXED_NOW.getTime() + 3_600_000);

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let temporary = '';

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
  temporary = await mkdtemp(join(tmpdir(), 'agent-catalog-tmp-'));
});
afterEach(async () => {
  await cleanup();
  await rm(temporary, { recursive: true, force: true });
});

function onDisk(now: Date, out: string): BuildOptions {
  return { ...writingBuildOptions(dir, now, out), productsOnDiskFrom: 0 };
}

function inHeap(now: Date, out: string): BuildOptions {
  return writingBuildOptions(dir, now, out);
}

describe('a build with its products on disk', () => {
  it('when built cold then the bundle equals the one built with the products in the heap', async () => {
    const heap = await build(inHeap(FIXED_NOW, 'heap'));
    const disk = await build(onDisk(FIXED_NOW, 'disk'));
    expect(heap.plan.catalog.count).toBeLessThan(PRODUCTS_ON_DISK_FROM);
    expect(disk.plan.catalog.count).toBe(heap.plan.catalog.count);
    expect(await hashTree(join(dir, 'disk'))).toEqual(await hashTree(join(dir, 'heap')));
    expect(disk.changes).toEqual(heap.changes);
  });

  it('when one price changes then the rebuild equals a cold build of the changed store', async () => {
    await build(onDisk(FIXED_NOW, 'disk'));
    await setUpstreamPrice(dir, 'green-glow', '9.99');
    const rebuilt = await build(onDisk(AN_HOUR_LATER, 'disk'));
    await build(inHeap(AN_HOUR_LATER, 'cold'));
    expect(rebuilt.changed).toBe(true);
    expect(rebuilt.changes.price.map((change) => change.slug)).toEqual(['green-glow']);
    expect(await hashTree(join(dir, 'disk'))).toEqual(await hashTree(join(dir, 'cold')));
  });

  it('when nothing changed then the rebuild writes nothing', async () => {
    await build(onDisk(FIXED_NOW, 'disk'));
    const before = await hashTree(join(dir, 'disk'));
    const again = await build(onDisk(AN_HOUR_LATER, 'disk'));
    expect(again.changed).toBe(false);
    expect(again.files.written).toBe(0);
    expect(await hashTree(join(dir, 'disk'))).toEqual(before);
  });

  it('when the environment sets the threshold badly then the build stops naming the variable', async () => {
    const options = { ...inHeap(FIXED_NOW, 'disk'), env: { AGENT_CATALOG_PRODUCTS_ON_DISK: 'many' } };
    await expect(build(options)).rejects.toThrow(
      /AGENT_CATALOG_PRODUCTS_ON_DISK must be a whole number of products, 0 or more: "many"/,
    );
    const negative = { ...inHeap(FIXED_NOW, 'disk'), env: { AGENT_CATALOG_PRODUCTS_ON_DISK: '-1' } };
    await expect(build(negative)).rejects.toThrow(/AGENT_CATALOG_PRODUCTS_ON_DISK must be/);
  });

  it('when the environment sets the part size below its least then the build stops naming the variable', async () => {
    const options = { ...onDisk(FIXED_NOW, 'disk'), env: { AGENT_CATALOG_PART_BYTES: '63' } };
    await expect(build(options)).rejects.toThrow(
      /AGENT_CATALOG_PART_BYTES must be a whole number of bytes, 64 or more: "63"/,
    );
  });

  it('when the build is done then the products file it kept in the temporary folder is gone', async () => {
    const previous = process.env.TMPDIR;
    const created: string[] = [];
    const watcher = watch(temporary, (_event, name) => {
      if (name !== null) created.push(name);
    });
    process.env.TMPDIR = temporary;
    try {
      await build(onDisk(FIXED_NOW, 'disk'));
      // The watcher's events arrive on the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      watcher.close();
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    expect(created.some((name) => name.startsWith('agent-catalog-products-'))).toBe(true);
    expect(await readdir(temporary)).toEqual([]);
  });
});

describe('the plan a build on disk returns', () => {
  it('when its products are read after the build then the read is refused, naming why', async () => {
    const result = await build(onDisk(FIXED_NOW, 'disk'));
    expect(result.plan.catalog.count).toBeGreaterThan(0);
    expect(() => result.plan.products.at(0)).toThrow(/after their build closed them/);
  });
});

type Item = Record<string, unknown> & { id: number };

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Rewrites the workspace's Shopify-shaped upstream file through `edit`. */
async function editShopifyUpstream(edit: (products: Item[]) => Item[]): Promise<void> {
  const file = join(dir, 'upstream/products.json');
  const data = await readJson<{ products: Item[] }>(file);
  await writeFile(file, JSON.stringify({ ...data, products: edit(data.products) }));
}

/** Points the workspace at a WooCommerce Store API file holding `items`. */
async function useWooUpstream(items: Item[]): Promise<void> {
  await writeFile(join(dir, 'upstream/woo.json'), JSON.stringify(items));
  const file = join(dir, 'catalog.config.json');
  const config = await readJson<Record<string, unknown>>(file);
  const upstream = { format: 'woocommerce', source: 'upstream/woo.json', timeout_ms: 3000, retries: 0 };
  await writeFile(file, JSON.stringify({ ...config, upstream }));
}

/** What a build reports besides its bundle: every one must be the same on disk as in the heap. */
function reportOf(result: BuildResult) {
  const { warnings, unusedContent, feedExcluded, changes } = result;
  return { warnings, unusedContent, feedExcluded, changes, count: result.plan.catalog.count };
}

/** Builds the workspace both ways and expects the same bundle and the same report. */
async function expectSameBothWays(): Promise<BuildResult> {
  const heap = await build(inHeap(FIXED_NOW, 'heap'));
  const disk = await build(onDisk(FIXED_NOW, 'disk'));
  expect(await hashTree(join(dir, 'disk'))).toEqual(await hashTree(join(dir, 'heap')));
  expect(reportOf(disk)).toEqual(reportOf(heap));
  return disk;
}

async function catalogProduct(out: string, slug: string): Promise<Record<string, unknown> | undefined> {
  const catalog = await readJson<{ products: Record<string, unknown>[] }>(
    join(dir, out, 'agent-catalog.json'),
  );
  return catalog.products.find((product) => product.slug === slug);
}

describe("the normaliser's rules with the products on disk", () => {
  it('when one upstream id comes three times then the copy the store updated last wins, as in the heap', async () => {
    await editShopifyUpstream((products) => {
      const green = products.find((product) => product.handle === 'green-glow');
      if (green === undefined) throw new Error('the fixture has no green-glow');
      const copy = (price: string, updated: string) => ({
        ...green,
        updated_at: updated,
        variants: (green.variants as Record<string, unknown>[]).map((variant) => ({ ...variant, price })),
      });
      // A newer copy after the first, then an older one that must not undo it.
      return [...products, copy('12.25', '2026-11-20T10:00:00Z'), copy('3.00', '2026-10-01T10:00:00Z')];
    });
    await expectSameBothWays();
    expect(await catalogProduct('disk', 'green-glow')).toMatchObject({ price: '12.25' });
  });

  it('when two products claim one slug then the later one is refused with the same warning', async () => {
    await editShopifyUpstream((products) => {
      const peach = products.find((product) => product.handle === 'peach-creme');
      if (peach === undefined) throw new Error('the fixture has no peach-creme');
      return [...products, { ...peach, id: 5999, title: 'Peach Impostor' }];
    });
    const disk = await expectSameBothWays();
    expect(disk.warnings.filter((warning) => warning.product === '5999')).toHaveLength(1);
    const kept = await catalogProduct('disk', 'peach-creme');
    expect(kept).toBeDefined();
    expect(kept?.name).not.toBe('Peach Impostor');
  });

  it('when a product is refused and a content file matches nothing then both are reported as in the heap', async () => {
    await editShopifyUpstream((products) => [
      ...products,
      { ...products[0], id: 5998, handle: 'no-variants', title: 'No Variants', variants: [] } as Item,
    ]);
    await writeFile(join(dir, 'content/products/gone-juice.md'), '---\nflavor: Gone\n---\nGone.\n');
    const disk = await expectSameBothWays();
    expect(disk.warnings.map((warning) => warning.product)).toContain('5998');
    expect(disk.unusedContent.map((item) => item.slug)).toEqual(['gone-juice']);
    // The merchant's content, matched by slug, is in the product on disk too.
    expect(await catalogProduct('disk', 'green-glow')).toBeDefined();
  });

  it('when a WooCommerce store has grouped products then each is summarised or refused as in the heap', async () => {
    const items = await readJson<Item[]>(join(FIXTURES_DIR, 'upstream/woocommerce-store-shapes.json'));
    const kit = items.find((item) => item.type === 'grouped');
    if (kit === undefined) throw new Error('the fixture has no grouped product');
    await useWooUpstream([
      ...items,
      // A group of groups only: its child is a group, so it has none to sum and no price.
      { ...kit, id: 301, slug: 'kit-of-kits', name: 'Kit of Kits', grouped_products: [kit.id] },
      // A group whose children are all outside the crawl.
      { ...kit, id: 302, slug: 'empty-kit', name: 'Empty Kit', grouped_products: [998] },
    ]);
    await rm(join(dir, 'content/products'), { recursive: true, force: true });
    const disk = await expectSameBothWays();
    expect(disk.warnings.map((warning) => warning.product)).toEqual(expect.arrayContaining(['301', '302']));
    expect(await catalogProduct('disk', String(kit.slug))).toBeDefined();
  });
});

describe('an upstream that fails with the products on disk', () => {
  it('when the read fails after some products then no products file is left behind', async () => {
    // A JSON Lines file is handed on 500 lines at a time: the broken line comes after the
    // first run is mapped, so the products file exists when the read fails.
    const { products } = await readJson<{ products: Item[] }>(join(dir, 'upstream/products.json'));
    const [first] = products;
    const lines = Array.from({ length: 600 }, (_, index) =>
      JSON.stringify({ ...first, id: 10_000 + index, handle: `juice-${index}` }),
    );
    await writeFile(join(dir, 'upstream/products.jsonl'), `${lines.join('\n')}\n{"id": broken\n`);
    const file = join(dir, 'catalog.config.json');
    const config = await readJson<Record<string, unknown>>(file);
    const upstream = { format: 'shopify', source: 'upstream/products.jsonl', timeout_ms: 3000, retries: 0 };
    await writeFile(file, JSON.stringify({ ...config, upstream }));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    let spilled = false;
    const watcher = watch(temporary, (_event, name) => {
      if (name?.startsWith('agent-catalog-products-')) spilled = true;
    });
    try {
      await expect(build(onDisk(FIXED_NOW, 'disk'))).rejects.toMatchObject({ code: 'UPSTREAM_SHAPE' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      watcher.close();
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    expect(spilled).toBe(true);
    expect(await readdir(temporary)).toEqual([]);
  });
});
