/**
 * Shared by the generator's pipeline, publish and CLI tests: a fresh temporary copy of a
 * fixture merchant (so every test writes into its own folder) and a hash of every file
 * under a directory, to prove a bundle stayed byte-for-byte as it was.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import type { BuildOptions, BuildResult } from '../../../generator/build.js';
import { readBundleDir } from '../../../generator/check/read-dir.js';
import { silentLogger } from '../../../generator/logger.js';
import { formatReport, reportSuccess } from '../../../generator/summary/report.js';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const FIXED_NOW = new Date('2026-11-21T12:00:00.000Z');

/** A temporary folder holding a copy of `test/fixtures/<name>/` (when given); removed by `cleanup`. */
export async function makeWorkspace(
  fixture?: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-test-'));
  if (fixture) await cp(join(FIXTURES_DIR, fixture), dir, { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** sha256 of every file under `dir`, by relative path; empty when the folder does not exist. */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  let entries: string[];
  try {
    entries = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return hashes;
  }
  for (const file of entries.sort()) {
    hashes[relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return hashes;
}

/** Names in `dir` (no recursion), to see staging or backup folders left beside a bundle. */
export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

/** A silent build of the workspace `dir` that writes `out` (its cache beside it) at the time `now`. */
export function writingBuildOptions(dir: string, now: Date, out = 'dist'): BuildOptions {
  return {
    configPath: 'catalog.config.json',
    out,
    cwd: dir,
    write: true,
    logger: silentLogger,
    now: () => now,
  };
}

/** Sets every variant price of the product `handle` in a workspace's Shopify-shaped upstream file. */

export async function setUpstreamPrice(dir: string, handle: string, price: string): Promise<void> {
  const file = join(dir, 'upstream/products.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as {
    products: { handle: string; variants: { price: string }[] }[];
  };
  const product = data.products.find((candidate) => candidate.handle === handle);
  if (product === undefined) throw new Error(`${file} has no product ${handle}`);
  for (const variant of product.variants) variant.price = price;
  await writeFile(file, JSON.stringify(data));
}

/** The human summary the CLI prints for a build's result (no warnings, hosts or timing). */
export function humanSummaryOf(result: BuildResult): string {
  return formatReport(
    reportSuccess({
      changed: result.changed,
      published: result.published,
      products: result.plan.catalog.count,
      warnings: [],
      unusedContent: [],
      feedExcluded: [],
      changes: result.changes,
      out: result.out,
      generated: result.plan.generated,
      upstream: result.upstream,
      files: result.files,
      baseline: result.baseline,
      hosts: [],
      cache: result.cache,
      durationMs: 0,
    }),
  );
}

/** The published sitemap's lastmod of each product page, by slug, read back whole (from its parts when parted). */
export async function publishedProductLastmods(out: string): Promise<Record<string, string>> {
  const body = (await readBundleDir(out)).get('sitemap.xml') ?? '';
  const tree = new XMLParser({ isArray: (name) => name === 'url' }).parse(body) as {
    urlset: { url: { loc: string; lastmod: string }[] };
  };
  const found: Record<string, string> = {};
  for (const { loc, lastmod } of tree.urlset.url) {
    const page = /\/kb\/products\/([^/]+)\.md$/.exec(new URL(loc).pathname);
    if (page?.[1] !== undefined) found[decodeURIComponent(page[1])] = lastmod;
  }
  return found;
}
