/**
 * What one price change uploads (issue 29 item 4: at most 30 files and 64 MiB a change): the
 * sample config on a Shopify-shaped store of N products, built once, then again after one
 * variant's price changed. Hosts upload the files whose digest is new, so the row counts the
 * files of the second bundle that the first did not hold byte for byte, and their MiB; with
 * the live surface on, the large documents are parted (`emit/document-storage.ts`), and the
 * row says how many parts the largest has. Sizes: `--sizes`, 10,000 by default.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runMeasured } from './child-process.js';
import { failure } from './generator-startup.js';
import { writeShopifyFixture } from './make-shopify-products.js';
import { CATALOG_CLI, makeScratchDir } from './paths.js';
import { type BenchRow, judge } from './results.js';

const MIB = 1024 * 1024;
const FILE_LIMIT = 30;
const MIB_LIMIT = 64;

async function digestFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file's digest and size under `dir`, by relative path. */
async function digestTree(dir: string): Promise<Map<string, { digest: string; bytes: number }>> {
  const tree = new Map<string, { digest: string; bytes: number }>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    tree.set(relative(dir, file), { digest: await digestFile(file), bytes: (await stat(file)).size });
  }
  return tree;
}

async function buildOnce(
  dir: string,
  config: string,
  fixture: string,
  out: string,
  label: string,
): Promise<void> {
  const args = [CATALOG_CLI, 'build', '--config', config, '--source', fixture, '--source-format', 'shopify'];
  const run = await runMeasured(process.execPath, [...args, '--out', out, '--allow-shrink', '--quiet'], {
    cwd: dir,
  });
  if (run.exitCode !== 0) throw failure(label, run);
}

/** Changes the price of the middle product's first variant in the fixture. */
async function changeOnePrice(fixture: string): Promise<void> {
  const upstream = JSON.parse(await readFile(fixture, 'utf8')) as {
    products: { variants: { price: string }[] }[];
  };
  const variant = upstream.products[Math.floor(upstream.products.length / 2)]?.variants[0];
  if (variant === undefined) throw new Error('the fixture has no products');
  variant.price = (Number(variant.price) + 1.25).toFixed(2);
  await writeFile(fixture, JSON.stringify(upstream));
}

/** Writes the bench's config for a fixture (generator-bench.ts's `writeBenchConfig`), passed in to keep imports one way. */
export type WriteConfig = (dir: string, fixture: string) => Promise<string>;

async function measureChange(
  size: number,
  writeBenchConfig: WriteConfig,
  log: (line: string) => void,
): Promise<BenchRow> {
  const dir = await makeScratchDir(`parts-${size}`);
  try {
    const fixture = join(dir, 'products.json');
    await writeShopifyFixture(fixture, size);
    const config = await writeBenchConfig(dir, fixture);
    const out = join(dir, 'dist');
    log(`parts: one price change at N=${size}`);
    await buildOnce(dir, config, fixture, out, `cold build N=${size}`);
    const before = await digestTree(out);
    await changeOnePrice(fixture);
    await buildOnce(dir, config, fixture, out, `one-change build N=${size}`);
    const after = await digestTree(out);
    const changed = [...after].filter(([path, file]) => before.get(path)?.digest !== file.digest);
    const changedMiB = changed.reduce((sum, [, file]) => sum + file.bytes, 0) / MIB;
    const largest = Math.max(...[...after.values()].map((file) => file.bytes)) / MIB;
    const parts = [...after.keys()].filter((path) => path.endsWith('.part')).length;
    return {
      section: 'generator',
      name: `one price change N=${size.toLocaleString('en-US')} (live on)`,
      figures: {
        'files changed': changed.length,
        'MiB changed': changedMiB,
        'files in bundle': after.size,
        'parts in bundle': parts,
        'largest file MiB': largest,
      },
      target: `≤ ${FILE_LIMIT} files; ≤ ${MIB_LIMIT} MiB`,
      verdict:
        judge(changed.length, FILE_LIMIT, false) === 'pass' && judge(changedMiB, MIB_LIMIT, false) === 'pass'
          ? 'pass'
          : 'miss',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchOnePriceChange(
  sizes: readonly number[],
  writeConfig: WriteConfig,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const size of sizes) {
    try {
      rows.push(await measureChange(size, writeConfig, log));
    } catch (error) {
      const note = (error instanceof Error ? error.message : String(error)).slice(0, 400);
      rows.push({
        section: 'generator',
        name: `one price change N=${size}`,
        figures: {},
        verdict: 'miss',
        note,
      });
    }
  }
  return rows;
}
