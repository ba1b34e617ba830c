/**
 * `build` and `check` grow the V8 heap by half at a time instead of V8's default (up to four
 * times what the last collection kept), however Node was started. V8 prints each new heap
 * limit and its factor with `--trace-gc-verbose`; that is what is read here.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_HEAP_GROWING_PERCENT } from '../../../generator/heap-policy.js';
import { makeShopifyProducts } from '../../helpers/upstream-server.js';
import { makeWorkspace } from '../pipeline/helpers.js';
import { KILLED_JUICE_CONFIG } from './killed-juice-config.js';
import { CLI, ensureCompiled } from './run-cli.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  await ensureCompiled();
  ({ dir, cleanup } = await makeWorkspace());
  await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(KILLED_JUICE_CONFIG));
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products: makeShopifyProducts(1_500) }));
});

afterAll(() => cleanup());

/** The factors of the old generation's limits V8 set while the command ran. */
async function heapGrowthFactors(nodeFlags: string[], args: string[]): Promise<number[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--trace-gc-verbose', ...nodeFlags, CLI, ...args],
    { cwd: dir, maxBuffer: 256 * 1024 * 1024, timeout: 120_000 },
  );
  return [
    ...stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g),
  ].map((match) => Number(match[1]));
}

describe('the heap of a batch command', () => {
  it('when a build and a check run then every limit V8 sets grows the heap by at most half', async () => {
    const most = 1 + BATCH_HEAP_GROWING_PERCENT / 100;
    const build = await heapGrowthFactors([], ['build', '--quiet']);
    // A build of 1,500 products collects its old generation more than once.
    expect(build.length).toBeGreaterThan(1);
    expect(Math.max(...build)).toBeLessThanOrEqual(most);
    const check = await heapGrowthFactors([], ['check', 'dist', '--json']);
    expect(check.length).toBeGreaterThan(0);
    expect(Math.max(...check)).toBeLessThanOrEqual(most);
  }, 180_000);

  it('when V8 is left to its default then it grows the heap by more, which is why the commands set it', async () => {
    // The same limits, read the same way, from a Node started with V8's default that no
    // command resets: proof that the reading above could see a larger factor.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--trace-gc-verbose',
        '-e',
        'let kept = []; for (let i = 0; i < 3e6; i++) { kept.push({ i, s: "x" + i }); if (kept.length > 1e6) kept = []; }',
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const factors = [...stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((match) =>
      Number(match[1]),
    );
    expect(factors.length).toBeGreaterThan(0);
    expect(Math.max(...factors)).toBeGreaterThan(1 + BATCH_HEAP_GROWING_PERCENT / 100);
  });
});
