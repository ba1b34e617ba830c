import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCacheDir } from '../../../generator/cache/build-cache-file.js';
import { silentLogger } from '../../../generator/logger.js';
import { recoverInterruptedPublish } from '../../../generator/publish/publish-bundle.js';
import { readPackedEntries } from '../../../live/packed-shard.js';
import { makeShopifyProducts } from '../../helpers/upstream-server.js';
import { hashTree, listDir, makeWorkspace } from '../pipeline/helpers.js';
import { KILLED_JUICE_CONFIG as CONFIG } from './killed-juice-config.js';
import { CLI, ensureCompiled, runCli } from './run-cli.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let fileSet: string[] = [];

/** The two whole builds' bound: 1,500 products took longer than runCli's default 20 s on a loaded machine. */
const BUILD_LIMIT_MS = 120_000;

/** A complete bundle: every file of a full build, a parsable catalog whose count matches. */
/** The live handler's shards, product pages included: their number follows the catalog (`_live/manifest.json` and `_live/pages.json` count them). */
const isLiveShard = (path: string): boolean => /^_live\/(products|variants|index|pages)\//.test(path);
/** Everything else: the same files whatever the catalog's size. */
const isFixed = (path: string): boolean => !isLiveShard(path);

/** How many product pages the bundle's page shards hold (the live surface packs one per product). */
async function countPackedPages(target: string, files: readonly string[]): Promise<number> {
  let pages = 0;
  for (const path of files.filter((file) => file.startsWith('_live/pages/'))) {
    pages += readPackedEntries(await readFile(join(target, path), 'utf8')).length;
  }
  return pages;
}

async function expectCompleteBundle(target: string): Promise<void> {
  const files = Object.keys(await hashTree(target)).sort();
  expect(files.filter(isFixed)).toEqual(fileSet.filter(isFixed));
  const catalog = JSON.parse(await readFile(join(target, 'agent-catalog.json'), 'utf8')) as {
    count: number;
    products: unknown[];
  };
  expect(catalog.count).toBe(catalog.products.length);
  expect(await countPackedPages(target, files)).toBe(catalog.count);
  const live = JSON.parse(await readFile(join(target, '_live/manifest.json'), 'utf8')) as {
    shards: number;
    variant_shards: number;
    index_parts: number;
    products: number;
  };
  expect(live.products).toBe(catalog.count);
  const pages = JSON.parse(await readFile(join(target, '_live/pages.json'), 'utf8')) as { shards: number };
  const count = (folder: string) => files.filter((path) => path.startsWith(`_live/${folder}/`)).length;
  expect([count('products'), count('variants'), count('index'), count('pages')]).toEqual([
    live.shards,
    live.variant_shards,
    live.index_parts,
    pages.shards,
  ]);
}

/** What a publish leaves beside the bundle when killed: the build cache's folder is meant to stay. */
async function leftovers(): Promise<string[]> {
  const cache = basename(buildCacheDir(join(dir, 'dist')));
  return (await listDir(dir)).filter((name) => name.startsWith('.dist-') && name !== cache);
}

/**
 * Starts a build that changes the catalog (the size alternates), waits until it has taken
 * the publish lock (so the kill lands inside publishing, where it matters), then SIGKILLs
 * it `offsetMs` later (never, when undefined). Resolves to whether the kill interrupted a
 * publish, and how long publishing lasted.
 */
async function killDuringPublish(
  offsetMs: number | undefined,
): Promise<{ interrupted: boolean; publishMs: number }> {
  const current = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as {
    count: number;
  };
  const size = current.count === 1_500 ? 1_510 : 1_500;
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products: makeShopifyProducts(size) }));
  const before = new Set(await listDir(dir));
  const child = spawn(process.execPath, [CLI, 'build', '--quiet'], { cwd: dir, stdio: 'ignore' });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let exited = false;
  void closed.then(() => {
    exited = true;
  });
  // Publishing has begun once a staging folder this build created appears.
  for (let polls = 0; polls < 5_000 && !exited; polls++) {
    const names = await listDir(dir);
    if (names.some((name) => name.startsWith('.dist-staging-') && !before.has(name))) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const publishing = performance.now();
  if (!exited && offsetMs !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, offsetMs));
    child.kill('SIGKILL');
  }
  await closed;
  const publishMs = performance.now() - publishing;
  return { interrupted: (await leftovers()).length > 0, publishMs };
}

beforeAll(async () => {
  await ensureCompiled();
  ({ dir, cleanup } = await makeWorkspace());
  await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(CONFIG));
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products: makeShopifyProducts(1_500) }));
  const run = await runCli(['build', '--quiet'], { cwd: dir, limitMs: BUILD_LIMIT_MS });
  expect(run.code).toBe(0);
  fileSet = Object.keys(await hashTree(join(dir, 'dist'))).sort();
}, 150_000);

afterAll(() => cleanup());

describe('a build killed at any moment', () => {
  it('when builds are SIGKILLed while publishing then a complete bundle is at the target or restored from the backup', async () => {
    // One undisturbed publish tells how long publishing takes here; the kills spread over it.
    const { publishMs } = await killDuringPublish(undefined);
    let interrupted = 0;
    for (const fraction of [0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.9, 0.95, 0.98, 1, 1.1]) {
      if ((await killDuringPublish(Math.round(fraction * publishMs))).interrupted) interrupted += 1;
      const names = await listDir(dir);
      if (!names.includes('dist')) {
        // Killed between the two renames: only the backup holds the bundle until recovery.
        expect(names).toContain('.dist-backup');
        await recoverInterruptedPublish(join(dir, 'dist'), silentLogger);
      }
      await expectCompleteBundle(join(dir, 'dist'));
    }
    // Otherwise the test proved nothing: the kills must have hit publishing at least once.
    expect(interrupted).toBeGreaterThan(0);
    const run = await runCli(['build', '--json'], { cwd: dir, limitMs: BUILD_LIMIT_MS });
    expect(run.code).toBe(0);
    await expectCompleteBundle(join(dir, 'dist'));
    expect(await leftovers()).toEqual([]);
  }, 240_000);
});
