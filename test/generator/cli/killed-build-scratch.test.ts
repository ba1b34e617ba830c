/**
 * A build killed while its products are on disk (the path every catalog from 50,000 products
 * takes) leaves them in the temporary folder: the next build removes them.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeShopifyProducts } from '../../helpers/upstream-server.js';
import { makeWorkspace } from '../pipeline/helpers.js';
import { KILLED_JUICE_CONFIG as CONFIG } from './killed-juice-config.js';
import { CLI, ensureCompiled, runCli } from './run-cli.js';

let dir = '';
let temporary = '';
let cleanup: () => Promise<void> = async () => {};

/** Every build here keeps its products on disk, in a temporary folder of the test's own. */
const ENV = (): Record<string, string> => ({ AGENT_CATALOG_PRODUCTS_ON_DISK: '0', TMPDIR: temporary });

const scratchFolders = async (): Promise<string[]> =>
  (await readdir(temporary)).filter((name) => name.startsWith('agent-catalog-'));

beforeAll(async () => {
  await ensureCompiled();
  ({ dir, cleanup } = await makeWorkspace());
  temporary = join(dir, 'tmp');
  await mkdir(temporary);
  await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(CONFIG));
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products: makeShopifyProducts(1_500) }));
});

afterAll(() => cleanup());

describe('a build killed with its products on disk', () => {
  it('when the next build runs then the killed build’s scratch folders are gone and the build’s own too', async () => {
    const child = spawn(process.execPath, [CLI, 'build', '--quiet'], {
      cwd: dir,
      env: { ...process.env, ...ENV() },
      stdio: 'ignore',
    });
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    let exited = false;
    void closed.then(() => {
      exited = true;
    });
    // Killed as soon as it has put products on disk.
    for (let polls = 0; polls < 20_000 && !exited; polls++) {
      if ((await scratchFolders()).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    await closed;
    const left = await scratchFolders();
    // Otherwise the test proved nothing: the kill must have left a folder behind.
    expect(left.length).toBeGreaterThan(0);

    const run = await runCli(['build', '--quiet'], { cwd: dir, env: ENV(), limitMs: 120_000 });
    expect(run.code).toBe(0);
    expect(await scratchFolders()).toEqual([]);
  }, 180_000);
});
