/**
 * `build` and `check` fix glibc's mmap threshold (generator/malloc-policy.ts), so buffers
 * freed after a large one go back to the system instead of staying in malloc's heap. A
 * probe shows it: a 24 MiB buffer is freed (which, left to glibc, raises its thresholds),
 * then 64 buffers of 512 KiB are made and freed, and the resident memory they leave is read
 * from /proc. glibc is Linux's, so these run on Linux only.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeShopifyProducts } from '../../helpers/upstream-server.js';
import { makeWorkspace } from '../pipeline/helpers.js';
import { KILLED_JUICE_CONFIG } from './killed-juice-config.js';
import { CLI, ensureCompiled } from './run-cli.js';

const POLICY = pathToFileURL(join(dirname(CLI), 'malloc-policy.js')).href;
const MIB = 1024;

/** What the probe leaves resident, in KiB; written to `out` when the process is about to end. */
const PROBE = `
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const settle = async () => { for (let i = 0; i < 3; i++) { globalThis.gc(); await sleep(20); } };
export async function probe(out) {
  let big = Buffer.alloc(24 << 20, 1);
  big = undefined;
  await settle();
  const before = rss();
  let held = Array.from({ length: 64 }, () => Buffer.alloc(512 << 10, 1));
  const during = rss();
  held = undefined;
  await settle();
  writeFileSync(out, JSON.stringify({ during: during - before, kept: rss() - before }));
}
`;

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  await ensureCompiled();
  ({ dir, cleanup } = await makeWorkspace());
  await writeFile(join(dir, 'probe.mjs'), PROBE);
  // Run straight away, with the policy set first when asked.
  await writeFile(
    join(dir, 'alone.mjs'),
    `import { probe } from './probe.mjs';
if (process.argv[2] === 'lean') {
  const { keepMallocLean } = await import(${JSON.stringify(POLICY)});
  if (!(await keepMallocLean())) throw new Error('glibc did not take the policy');
}
await probe(process.argv[3]);`,
  );
  // Loaded before the CLI: probes once the command is done, in the command's own process.
  await writeFile(
    join(dir, 'after-command.mjs'),
    `import { probe } from './probe.mjs';
let probed = false;
process.on('beforeExit', () => { if (!probed) { probed = true; void probe(process.env.PROBE_OUT); } });`,
  );
  await writeFile(join(dir, 'catalog.config.json'), JSON.stringify(KILLED_JUICE_CONFIG));
  await writeFile(join(dir, 'products.json'), JSON.stringify({ products: makeShopifyProducts(50) }));
});

afterAll(() => cleanup());

interface Reading {
  /** Resident KiB the 64 buffers added while held: proof that they were made. */
  during: number;
  /** Resident KiB still there once they were freed. */
  kept: number;
}

async function readProbe(out: string): Promise<Reading> {
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(out, 'utf8')) as Reading;
}

async function probeAlone(mode: 'lean' | 'default'): Promise<Reading> {
  const out = join(dir, `alone-${mode}.json`);
  await promisify(execFile)(process.execPath, ['--expose-gc', 'alone.mjs', mode, out], {
    cwd: dir,
    timeout: 60_000,
  });
  return readProbe(out);
}

describe.runIf(process.platform === 'linux')("glibc's malloc in a batch command", () => {
  it('when the policy is set then buffers freed after a large one go back to the system', async () => {
    const lean = await probeAlone('lean');
    expect(lean.during).toBeGreaterThan(24 * MIB);
    expect(lean.kept).toBeLessThan(4 * MIB);
  });

  it('when glibc is left to its default then it keeps them, which is why the commands set it', async () => {
    const left = await probeAlone('default');
    expect(left.during).toBeGreaterThan(24 * MIB);
    expect(left.kept).toBeGreaterThan(16 * MIB);
  });

  it('when build and check run then their process hands freed buffers back', async () => {
    for (const args of [
      ['build', '--quiet'],
      ['check', 'dist'],
    ]) {
      const out = join(dir, `${args[0]}.json`);
      await promisify(execFile)(
        process.execPath,
        ['--expose-gc', '--import', './after-command.mjs', CLI, ...args],
        { cwd: dir, timeout: 120_000, env: { ...process.env, PROBE_OUT: out } },
      );
      const reading = await readProbe(out);
      expect(reading.during, args[0]).toBeGreaterThan(24 * MIB);
      expect(reading.kept, args[0]).toBeLessThan(4 * MIB);
    }
  }, 180_000);
});
