/**
 * A build whose output directory is gone but whose build cache is kept (the regenerate
 * workflow keeps the cache between runs, not the bundle) compares with the bundle the cache
 * remembers: it says when nothing changed, counts the files that differ from that bundle,
 * and still refuses a sharp shrink.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { CatalogError } from '../../../generator/errors.js';
import {
  FIXED_NOW,
  hashTree,
  humanSummaryOf,
  makeWorkspace,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const AN_HOUR_LATER = new Date(FIXED_NOW.getTime() + 3_600_000);

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

function options(now: Date): BuildOptions {
  return writingBuildOptions(dir, now, 'dist');
}

interface UpstreamFile {
  products: { handle: string }[];
}

async function readUpstream(): Promise<UpstreamFile> {
  return JSON.parse(await readFile(join(dir, 'upstream/products.json'), 'utf8')) as UpstreamFile;
}

/** The bundle as a CI job that kept only the cache finds it: no output directory. */
async function dropBundle(): Promise<void> {
  await rm(join(dir, 'dist'), { recursive: true, force: true });
}

/** The paths whose bytes differ between two trees, and those in only one of them. */
function differingPaths(a: Record<string, string>, b: Record<string, string>): string[] {
  const paths = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...paths].filter((path) => a[path] !== b[path]).sort();
}

describe('a build with the build cache but without the bundle it left', () => {
  it('when nothing changed then it says so and writes the same bytes again', async () => {
    await build(options(FIXED_NOW));
    const published = await hashTree(join(dir, 'dist'));
    await dropBundle();

    const again = await build(options(AN_HOUR_LATER));

    expect(again.cache.state).toBe('used');
    expect(again.baseline).toBe('cache');
    expect(again.changed).toBe(false);
    expect(again.files).toEqual({ written: 0, unchanged: Object.keys(published).length, removed: 0 });
    // The remembered `generated` time is kept, so every file is the one the host already has.
    expect(again.plan.catalog.generated).toBe(FIXED_NOW.toISOString());
    expect(await hashTree(join(dir, 'dist'))).toEqual(published);
  });

  it('when one price changed then it counts only the files that differ from the remembered bundle', async () => {
    await build(options(FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const handle = (await readUpstream()).products[0]?.handle;
    if (handle === undefined) throw new Error('the sample has no product');
    await setUpstreamPrice(dir, handle, '99.00');
    await dropBundle();

    const rebuilt = await build(options(AN_HOUR_LATER));

    expect(rebuilt.changed).toBe(true);
    expect(rebuilt.plan.catalog.generated).toBe(AN_HOUR_LATER.toISOString());
    const after = await hashTree(join(dir, 'dist'));
    const differing = differingPaths(before, after);
    const removed = Object.keys(before).filter((path) => !(path in after)).length;
    expect(rebuilt.files).toEqual({
      written: differing.length - removed,
      unchanged: Object.keys(after).length - (differing.length - removed),
      removed,
    });
    // The summary's diff is against the remembered catalog's facts.
    expect(rebuilt.changes.price).toEqual([expect.objectContaining({ slug: handle, to: '99.00' })]);
  });

  it('when it leaves the same store as a build beside its bundle then both bundles are the same bytes', async () => {
    await build(options(FIXED_NOW));
    const handle = (await readUpstream()).products[1]?.handle;
    if (handle === undefined) throw new Error('the sample has one product only');
    await setUpstreamPrice(dir, handle, '12.34');
    // The same cache and bundle, copied: one build keeps its bundle, the other loses it.
    await cp(join(dir, 'dist'), join(dir, 'kept'), { recursive: true });
    await cp(join(dir, '.dist-cache'), join(dir, '.kept-cache'), { recursive: true });
    await dropBundle();

    const fromCache = await build(options(AN_HOUR_LATER));
    const besideBundle = await build(writingBuildOptions(dir, AN_HOUR_LATER, 'kept'));

    expect([fromCache.baseline, besideBundle.baseline]).toEqual(['cache', 'bundle']);
    expect(await hashTree(join(dir, 'dist'))).toEqual(await hashTree(join(dir, 'kept')));
  });

  it('when the human summary is printed then it says what the files were counted against', async () => {
    await build(options(FIXED_NOW));
    await dropBundle();
    const again = await build(options(AN_HOUR_LATER));

    const text = humanSummaryOf(again);

    const filesLine = text.split('\n').find((line) => line.trim().startsWith('files:'));
    expect(filesLine).toContain('0 written');
    expect(filesLine).toContain('against the bundle the build cache remembers');
  });

  it('when most products are gone then the shrink guard still refuses, naming the remembered count', async () => {
    await build(options(FIXED_NOW));
    const upstream = await readUpstream();
    expect(upstream.products.length).toBeGreaterThan(1);
    await writeFile(
      join(dir, 'upstream/products.json'),
      JSON.stringify({ ...upstream, products: upstream.products.slice(0, 1) }),
    );
    await dropBundle();

    const failure = await build(options(AN_HOUR_LATER)).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(CatalogError);
    expect((failure as CatalogError).code).toBe('CATALOG_SHRANK');
    expect((failure as CatalogError).message).toContain(`from ${upstream.products.length} to 1 products`);
  });

  it('when the cache is gone as well then the build is a first build that changed everything', async () => {
    await build(options(FIXED_NOW));
    await dropBundle();
    await rm(join(dir, '.dist-cache'), { recursive: true, force: true });

    const first = await build(options(AN_HOUR_LATER));

    expect(first.cache.state).toBe('created');
    expect(first.baseline).toBe('none');
    expect(first.changed).toBe(true);
    expect(first.files.unchanged).toBe(0);
    expect(first.plan.catalog.generated).toBe(AN_HOUR_LATER.toISOString());
  });
});
