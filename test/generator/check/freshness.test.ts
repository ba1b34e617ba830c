/**
 * `check <url>` says how old a live site's data is: the health document's `generated`
 * against twice the catalog's 15-minute cache. Older is a warning (the exit status stays
 * 0), named in the text report and carried as `freshness` and `warnings` in `--json`; a
 * directory is not judged. The clock is moved, not waited for.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget } from '../../../generator/check/check-target.js';
import { formatJsonReport, formatTextReport } from '../../../generator/check/report.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { startPreviewServer } from '../../../generator/preview/server.js';
import {
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_GENERATED,
} from '../../helpers/sample-plan.js';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';

const MINUTE = 60_000;
const generatedAt = Date.parse(SAMPLE_GENERATED);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('check on a live site judges how old its data is', () => {
  let bundle: TempBundle;
  let server: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      merchant: { ...SAMPLE_CONFIG_INPUT.merchant, url: siteUrl },
    });
    bundle = await writeTempBundle(emitBundle(makeSamplePlan({ config })));
    server = await startPreviewServer({ dir: bundle.dir, port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await bundle?.cleanup();
  });

  it('when the data was taken 20 minutes ago then there is no warning', async () => {
    const result = await checkTarget(server.url, { cwd: '/', now: () => generatedAt + 20 * MINUTE });
    expect(result.problems).toEqual([]);
    expect(result.freshness).toEqual({
      generated: SAMPLE_GENERATED,
      ageSeconds: 20 * 60,
      limitSeconds: 30 * 60,
      stale: false,
    });
    expect(result.warnings).toEqual([]);
    expect(formatTextReport(result)).not.toMatch(/^warning:/m);
  });

  it('when the data was taken 31 minutes ago then check warns, naming the time, and the site is still valid', async () => {
    const result = await checkTarget(server.url, { cwd: '/', now: () => generatedAt + 31 * MINUTE });
    expect(result.problems).toEqual([]);
    expect(result.freshness?.stale).toBe(true);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(SAMPLE_GENERATED);
    expect(formatTextReport(result)).toMatch(/^warning: .*2026-11-21T12:00:00\.000Z/m);
    const json = JSON.parse(formatJsonReport(result)) as Record<string, unknown>;
    expect(json).toMatchObject({
      valid: true,
      freshness: { generated: SAMPLE_GENERATED, age_seconds: 31 * 60, limit_seconds: 1800, stale: true },
    });
    expect(json.warnings).toHaveLength(1);
  });

  it('when a directory is checked then its age is not judged', async () => {
    const result = await checkTarget(bundle.dir, {
      cwd: '/',
      now: () => generatedAt + 365 * 24 * 60 * MINUTE,
    });
    expect(result.freshness).toBeUndefined();
    expect(result.warnings).toEqual([]);
  });
});
