import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { readBundleDir } from '../../../generator/check/read-dir.js';
import { isCatalogError } from '../../../generator/errors.js';
import { silentLogger } from '../../../generator/logger.js';
import { validateBundle } from '../../../generator/validate/index.js';
import { FIXED_NOW, hashTree, makeWorkspace } from './helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
  // Content for products the store no longer has would be its own failure; this is about the store.
  await rm(join(dir, 'content/products'), { recursive: true, force: true });
});
afterEach(() => cleanup());

function options(extra: Partial<BuildOptions> = {}): BuildOptions {
  return {
    configPath: 'catalog.config.json',
    out: 'dist',
    cwd: dir,
    write: true,
    logger: silentLogger,
    now: () => FIXED_NOW,
    ...extra,
  };
}

async function rewriteUpstream(edit: (products: Record<string, unknown>[]) => Record<string, unknown>[]) {
  const file = join(dir, 'upstream/products.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { products: Record<string, unknown>[] };
  await writeFile(file, JSON.stringify({ products: edit(data.products) }));
}

describe('an empty catalog', () => {
  it('when every upstream product is refused then the build fails, names the missing field and writes nothing', async () => {
    await rewriteUpstream((products) => products.map(({ handle: _handle, ...rest }) => rest));
    const error = await build(options()).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CATALOG_EMPTY')).toBe(true);
    expect((error as Error).message).toContain('has no `handle` field');
    expect((error as Error).message).toContain('--allow-empty');
    expect(await hashTree(join(dir, 'dist'))).toEqual({});
  });

  it('when a good bundle exists and every product is then refused then that bundle stays as it was', async () => {
    await build(options());
    const before = await hashTree(join(dir, 'dist'));
    await rewriteUpstream((products) => products.map(({ handle: _handle, ...rest }) => rest));
    const error = await build(options({ allowShrink: true })).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CATALOG_EMPTY')).toBe(true);
    expect(await hashTree(join(dir, 'dist'))).toEqual(before);
  });

  it('when the store has no products on a first build then it fails; with --allow-empty it is published and check accepts it', async () => {
    await rewriteUpstream(() => []);
    const error = await build(options()).catch((e: unknown) => e);
    expect(isCatalogError(error, 'CATALOG_EMPTY')).toBe(true);
    expect((error as Error).message).toContain('the upstream has no products');
    const result = await build(options({ allowEmpty: true }));
    expect(result.published).toBe(true);
    expect(result.plan.catalog.count).toBe(0);
    expect(result.plan.health.allow_empty).toBe(true);
    expect(validateBundle(await readBundleDir(join(dir, 'dist')))).toEqual([]);
  });

  it('when an empty bundle does not say --allow-empty then check refuses it', async () => {
    await rewriteUpstream(() => []);
    await build(options({ allowEmpty: true }));
    const files = new Map(await readBundleDir(join(dir, 'dist')));
    const healthPath = [...files.keys()].find((path) => path.endsWith('agent-catalog/health.json'));
    if (healthPath === undefined) throw new Error('no health document');
    const health = JSON.parse(files.get(healthPath) ?? '{}') as Record<string, unknown>;
    delete health.allow_empty;
    files.set(healthPath, JSON.stringify(health));
    const problems = validateBundle(files);
    expect(problems.map((problem) => problem.rule)).toEqual(['empty']);
    expect(problems[0]?.message).toContain('--allow-empty');
  });
});
