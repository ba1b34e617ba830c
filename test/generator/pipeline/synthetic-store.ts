/**
 * A made-up Shopify store of any size in a workspace, for tests that build a catalog too
 * large for the sample: its products file and a config naming it, with the live surface
 * on or off, and the build options that build it there at a given time.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildOptions } from '../../../generator/build.js';
import { silentLogger } from '../../../generator/logger.js';
import type { ShopifyProduct } from '../../fixtures/upstream/make-products.js';

/** Writes `products.json` into `dir`, or replaces it. */
export async function writeStoreProducts(dir: string, products: readonly ShopifyProduct[]): Promise<void> {
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products }));
}

/** Writes a config (`<name>.config.json` unless `file` says) for a store named `name` reading `products.json`. */
export async function writeStoreConfig(
  dir: string,
  name: string,
  live: boolean,
  file = `${name}.config.json`,
): Promise<string> {
  const host = `${name}-juice.example`;
  await writeFile(
    join(dir, file),
    JSON.stringify({
      merchant: {
        name: `${name} Juice`,
        url: `https://${host}`,
        contact: `hello@${host}`,
        currency: 'USD',
        ships_to: ['US'],
      },
      auth_url: `https://auth.${host}`,
      upstream: { source: 'products.json', format: 'shopify' },
      live: { enabled: live },
    }),
  );
  return file;
}

/** Options that build `configPath` in `dir` into `out` at `now`, silently. */
export function storeBuildOptions(
  dir: string,
  configPath: string,
  options: { out?: string; now: Date; write?: boolean },
): BuildOptions {
  return {
    configPath,
    out: options.out ?? 'dist',
    cwd: dir,
    write: options.write ?? true,
    logger: silentLogger,
    now: () => options.now,
  };
}
