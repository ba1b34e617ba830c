/**
 * The 15-minute job, end to end through the compiled CLI on a copy of the embedded sample:
 * a product disappears from the store, the next build publishes without it and names its
 * content file as unused; the product comes back and the next build restores it with its
 * content. Also the two content folders that are not this store's (a typo in
 * `content_dir`, and the sample's content read against another store): exit 2.
 */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../generator/model.js';
import type { BuildReport } from '../../../generator/summary/report.js';
import { makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';
import { ensureCompiled, runCli } from './run-cli.js';

const GONE = 'green-glow';
const GONE_FILE = 'sample/content/products/green-glow.md';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let original = '';

beforeAll(() => ensureCompiled());
beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace());
  await cp(join(REPO_ROOT, 'sample'), join(dir, 'sample'), { recursive: true });
  await cp(join(REPO_ROOT, 'catalog.config.json'), join(dir, 'catalog.config.json'));
  original = await readFile(join(dir, 'sample/upstream/products.json'), 'utf8');
});
afterEach(() => cleanup());

async function buildJson(...flags: string[]): Promise<{ code: number | null; report: BuildReport }> {
  const run = await runCli(['build', '--json', ...flags], { cwd: dir, limitMs: 30_000 });
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { code: run.code, report: JSON.parse(lines[0] ?? '') as BuildReport };
}

async function removeUpstream(handle: string): Promise<void> {
  const data = JSON.parse(original) as { products: { handle: string }[] };
  const products = data.products.filter((product) => product.handle !== handle);
  await writeFile(join(dir, 'sample/upstream/products.json'), JSON.stringify({ products }));
}

async function readCatalog(): Promise<Catalog> {
  return JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as Catalog;
}

async function editConfig(edit: (config: Record<string, unknown>) => void): Promise<void> {
  const file = join(dir, 'catalog.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(config);
  await writeFile(file, JSON.stringify(config));
}

/**
 * The 15-minute cron's round trip: build, GONE leaves the store, build, it returns, build.
 * Asserts what every variant must show (published without it, the file named as unused,
 * restored identical with its content) and returns the three runs for the variant's own checks.
 */
async function expectLeavesAndReturns() {
  const first = await buildJson();
  expect(first.code).toBe(0);
  const before = (await readCatalog()).products.find((product) => product.slug === GONE);
  expect(before?.ingredients).toContain('kale');

  await removeUpstream(GONE);
  const gone = await buildJson();
  expect(gone.code).toBe(0);
  expect(gone.report.published).toBe(true);
  expect(gone.report.unusedContent).toEqual([GONE_FILE]);
  expect(gone.report.warnings.some((warning) => warning.includes(GONE_FILE))).toBe(true);
  expect((await readCatalog()).products.map((product) => product.slug)).not.toContain(GONE);

  await writeFile(join(dir, 'sample/upstream/products.json'), original);
  const back = await buildJson();
  expect(back.code).toBe(0);
  expect(back.report.unusedContent).toEqual([]);
  expect((await readCatalog()).products.find((product) => product.slug === GONE)).toEqual(before);
  return { first, gone, back };
}

describe('a product that leaves the store and comes back', () => {
  it('when one of 15 products disappears then the build publishes without it, names the unused file, and restores it when it returns', async () => {
    const { first, gone, back } = await expectLeavesAndReturns();
    expect(gone.report.products).toBe(first.report.products === null ? null : first.report.products - 1);
    expect(gone.report.changes.removed).toEqual([GONE]);
    expect(back.report.changes.added).toEqual([GONE]);
  });

  it('when a product disappears under --strict then the build exits 2 and the last bundle stays', async () => {
    expect((await buildJson()).code).toBe(0);
    const published = await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8');
    await removeUpstream(GONE);
    const strict = await buildJson('--strict');
    expect(strict.code).toBe(2);
    expect(strict.report.error?.code).toBe('CONTENT_INVALID');
    expect(strict.report.error?.message).toContain(GONE_FILE);
    expect(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')).toBe(published);
  });

  it('when the human summary is printed then it lists the unused file', async () => {
    await removeUpstream(GONE);
    const run = await runCli(['build'], { cwd: dir, limitMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(GONE_FILE);
  });
});

describe('a store whose only content file belongs to the product that leaves', () => {
  async function keepOnlyContentOf(slug: string): Promise<void> {
    const folder = join(dir, 'sample/content/products');
    for (const name of await readdir(folder)) {
      if (name !== `${slug}.md`) await rm(join(folder, name));
    }
  }

  it('when the store unpublishes the only product with a content file then the build still publishes, warns, and restores it when it returns', async () => {
    await keepOnlyContentOf(GONE);
    await expectLeavesAndReturns();
  });

  it('when the only content file matches nothing and no bundle was published yet then the build exits 2', async () => {
    await keepOnlyContentOf(GONE);
    await removeUpstream(GONE);
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONTENT_INVALID');
    expect(report.error?.message).toContain('content_dir');
  });
});

describe('a content folder that is not this store', () => {
  it('when content_dir has a typo then the build exits 2 naming content_dir and --config', async () => {
    await editConfig((config) => {
      config.content_dir = 'sample/contnet';
    });
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONTENT_INVALID');
    expect(report.error?.message).toContain('content_dir');
    expect(report.error?.message).toContain('--config');
  });

  it('when the sample content meets another store then the build exits 2 naming content_dir and --config', async () => {
    const other = [{ id: 1, title: 'Other', handle: 'other-thing', variants: [{ id: 1, price: '5.00' }] }];
    await writeFile(join(dir, 'sample/upstream/products.json'), JSON.stringify({ products: other }));
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONTENT_INVALID');
    expect(report.error?.message).toContain('content_dir');
    expect(report.error?.message).toContain('--config');
  });
});
