/**
 * Config values that every build would later refuse, refused up front instead: through
 * the compiled CLI on a copy of the embedded sample, each must exit 2 CONFIG_INVALID
 * naming the config file and the key to set, never exit 1 from a document gate on every
 * run of the 15-minute job.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuildReport } from '../../../generator/summary/report.js';
import { ensureCompiled, runCli } from './run-cli.js';
import { makeSampleWorkspace } from './sample-workspace.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(() => ensureCompiled());
beforeEach(async () => {
  ({ dir, cleanup } = await makeSampleWorkspace());
});
afterEach(() => cleanup());

async function editConfig(edit: (config: Record<string, Record<string, unknown>>) => void): Promise<void> {
  const file = join(dir, 'catalog.config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
  edit(config);
  await writeFile(file, JSON.stringify(config));
}

async function buildJson(): Promise<{ code: number | null; report: BuildReport }> {
  const run = await runCli(['build', '--json'], { cwd: dir, limitMs: 30_000 });
  return { code: run.code, report: JSON.parse(run.stdout.trim()) as BuildReport };
}

const LONG_NAME = `The ${'Very '.repeat(14)}Long Juice Company`;

describe('a merchant name longer than the feed allows for a brand', () => {
  it('when merchant.name is over 70 characters and no brand is set then the build exits 2 saying to set merchant.brand', async () => {
    expect(LONG_NAME.length).toBeGreaterThan(70);
    await editConfig((config) => {
      const merchant = config.merchant ?? {};
      merchant.name = LONG_NAME;
      delete merchant.brand;
    });
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONFIG_INVALID');
    expect(report.error?.message).toContain('catalog.config.json');
    expect(report.error?.message).toContain('merchant.brand');
  });

  it('when merchant.brand is set within 70 characters then the same long name builds', async () => {
    await editConfig((config) => {
      const merchant = config.merchant ?? {};
      merchant.name = LONG_NAME;
      merchant.brand = 'Long Juice';
    });
    expect((await buildJson()).code).toBe(0);
  });

  it('when merchant.brand itself is over 70 characters then the build exits 2 naming merchant.brand', async () => {
    await editConfig((config) => {
      const merchant = config.merchant ?? {};
      merchant.brand = LONG_NAME;
    });
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONFIG_INVALID');
    expect(report.error?.message).toContain('merchant.brand');
  });
});

describe('a shipping amount with more decimals than the currency has', () => {
  it.each([
    ['shipping_policy.price', 'price'],
    ['shipping_policy.free_shipping_threshold', 'free_shipping_threshold'],
  ])('when %s is "4.999" USD then the build exits 2 naming the file and the key', async (key, field) => {
    await editConfig((config) => {
      const policy = config.shipping_policy ?? {};
      policy[field] = '4.999';
    });
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONFIG_INVALID');
    expect(report.error?.message).toContain(`catalog.config.json: ${key}`);
  });

  it('when shipping_policy.countries names a country the merchant does not ship to then the message names the config file', async () => {
    await editConfig((config) => {
      const policy = config.shipping_policy ?? {};
      policy.countries = ['CA'];
    });
    const { code, report } = await buildJson();
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONFIG_INVALID');
    expect(report.error?.message).toContain('catalog.config.json: shipping_policy.countries');
  });
});
