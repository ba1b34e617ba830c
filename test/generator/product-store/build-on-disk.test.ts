/**
 * A build whose products are kept on disk (the path a big catalog takes) writes the bundle
 * a build holding them in the heap writes, byte for byte, cold and after a change, and
 * leaves no products file behind.
 */
import { watch } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build, PRODUCTS_ON_DISK_FROM } from '../../../generator/build.js';
import {
  FIXED_NOW,
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
