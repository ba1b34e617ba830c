/**
 * Builds the small sample workspace (`build({ write: false })`, the whole pipeline and its
 * gate) from one upstream fixture of test/fixtures/upstream/ (or a store on loopback serving
 * one), so a test sees what an adapter's mapping of a real store's payload becomes in the
 * published plan.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { build } from '../../../generator/build.js';
import { silentLogger } from '../../../generator/logger.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { FIXED_NOW, FIXTURES_DIR, makeWorkspace } from '../pipeline/helpers.js';

type ConfigEdit = (config: Record<string, unknown>) => Record<string, unknown>;

/** Removes the workspace of the last `buildFromFixture`; call it in `afterEach`. */
let cleanupLast: () => Promise<void> = async () => {};

export function cleanUpFixtureBuild(): Promise<void> {
  return cleanupLast();
}

export async function buildFromFixture(
  fixture: string,
  format: 'shopify' | 'woocommerce',
  edit: ConfigEdit = (config) => config,
) {
  const workspace = await makeWorkspace('sample-small');
  cleanupLast = workspace.cleanup;
  await rm(join(workspace.dir, 'content/products'), { recursive: true, force: true });
  const file = join(workspace.dir, 'catalog.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  // A fixture file's name, an absolute path, or a loopback store's origin.
  const source =
    isAbsolute(fixture) || fixture.startsWith('http://') ? fixture : join(FIXTURES_DIR, 'upstream', fixture);
  const upstream = { format, source, timeout_ms: 3000, retries: 0 };
  await writeFile(file, JSON.stringify(edit({ ...config, upstream })));
  const result = await build({
    configPath: 'catalog.config.json',
    out: 'dist',
    cwd: workspace.dir,
    write: false,
    logger: silentLogger,
    now: () => FIXED_NOW,
  });
  const bySlug = new Map([...result.plan.products].map((product) => [product.record.slug, product]));
  const find = (slug: string): PlannedProduct => {
    const found = bySlug.get(slug);
    if (found === undefined) throw new Error(`no product ${slug}`);
    return found;
  };
  return { result, find };
}
