/**
 * A large Shopify-shaped store built twice with the real CLI, once per kind of host: for
 * Cloudflare Pages (`build.hosts: ["cloudflare-pages-free"]`: the live surface on, documents
 * over a part's size stored in parts the `_worker.js` streams whole) and for Netlify
 * (`build.hosts: ["netlify"]`: documents kept whole, since a Netlify function streams at most
 * 20 MB). Each build refuses, exit 1 with HOST_LIMIT, a bundle its host would not deploy.
 *
 * The second build reuses the first one's fragments: the build cache sits beside `--out`
 * (`.<out name>-cache/`) and its settings digest leaves `build` out (docs/build.md, "The build
 * cache"), so both builds go to the same `--out`, the first bundle moved aside before the
 * second starts. A rebuild from fragments writes the bytes a cold build writes (a generator
 * test holds them equal), and costs a fraction of a cold build's minutes at 100,000 products.
 * Used by `large-store.test.ts` and by `npm run bench` (scripts/bench/hosts-bench.ts).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HostName } from '../../generator/hosting/host-limits-table.js';
import { makeShopifyProducts } from '../fixtures/upstream/make-products.js';
import { HOSTS_DIR } from './engines.js';

/** The repository root, from `test/hosts/` or from the compiled copy `npm run bench` runs. */
const REPO_ROOT = join(HOSTS_DIR, '..', '..');

/**
 * Runs `agent-catalog build <args>` in `cwd` to completion and throws, saying why, when it
 * fails: the tests pass the CLI runner they use everywhere, the bench one that measures CPU.
 */
export type RunBuild = (args: readonly string[], cwd: string) => Promise<void>;

export interface LargeStoreBuild {
  /** The bundle's folder. */
  dir: string;
  /** Wall time of the build, for the bench's log (never asserted). */
  wallMs: number;
}

export interface LargeStore {
  products: number;
  cloudflare: LargeStoreBuild;
  netlify: LargeStoreBuild;
}

/** The sample merchant's config on the generated store: one upstream page holding every product. */
async function writeConfig(root: string, fixture: string, hosts: readonly HostName[]): Promise<string> {
  const config = JSON.parse(await readFile(join(REPO_ROOT, 'catalog.config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // 100,000 products are about 130 MiB in one page, past the default 20 MiB cap on a response.
  config.upstream = { format: 'shopify', source: fixture, max_response_bytes: 512 * 1024 * 1024 };
  // The sample's content matches none of the generated products, and a configured folder must exist.
  delete config.content_dir;
  config.build = { hosts };
  const path = join(root, `${hosts.join('+')}.config.json`);
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

/**
 * Writes `products` generated products into `root` and builds them for Cloudflare Pages into
 * `root/cloudflare`, then for Netlify into `root/netlify`, each with `runBuild`.
 */
export async function buildLargeStore(
  root: string,
  products: number,
  runBuild: RunBuild,
): Promise<LargeStore> {
  const fixture = join(root, 'products.json');
  await writeFile(fixture, JSON.stringify({ products: makeShopifyProducts(products) }));
  const bundles: Partial<Record<'cloudflare' | 'netlify', LargeStoreBuild>> = {};
  const targets = [
    ['cloudflare', ['cloudflare-pages-free']],
    ['netlify', ['netlify']],
  ] as const;
  for (const [name, hosts] of targets) {
    const config = await writeConfig(root, fixture, hosts);
    const started = performance.now();
    await runBuild(['build', '--quiet', '--config', config, '--out', join(root, 'out')], root);
    const wallMs = performance.now() - started;
    const dir = join(root, name);
    await rename(join(root, 'out'), dir);
    bundles[name] = { dir, wallMs };
  }
  const { cloudflare, netlify } = bundles;
  if (cloudflare === undefined || netlify === undefined) throw new Error('a build is missing');
  return { products, cloudflare, netlify };
}
