/**
 * Upstream errors that say the fix, through the compiled CLI: a source that answers a web
 * page (the store's home page) points at the product-list paths and `--source-format`;
 * a size refusal names `upstream.max_response_bytes` and its current value.
 */

import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildReport } from '../../../generator/summary/report.js';
import { makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';
import { ensureCompiled, runCli } from './run-cli.js';

let server: Server;
let origin = '';
let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  await ensureCompiled();
  ({ dir, cleanup } = await makeWorkspace());
  await cp(join(REPO_ROOT, 'sample'), join(dir, 'sample'), { recursive: true });
  await cp(join(REPO_ROOT, 'catalog.config.json'), join(dir, 'catalog.config.json'));
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><head><title>Shop</title></head><body>Welcome</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

async function buildJson(...flags: string[]): Promise<BuildReport> {
  const run = await runCli(['build', '--json', ...flags], { cwd: dir, limitMs: 30_000 });
  return JSON.parse(run.stdout.trim()) as BuildReport;
}

describe('upstream errors that say the fix', () => {
  it('when --source is a store root that answers HTML then the error suggests /products.json and --source-format shopify', async () => {
    const report = await buildJson('--source', `${origin}/`);
    expect(report.exitCode).toBe(1);
    expect(report.error?.code).toBe('UPSTREAM_SHAPE');
    expect(report.error?.message).toContain(`${origin}/products.json`);
    expect(report.error?.message).toContain('--source-format shopify');
  });

  it('when the upstream file is larger than the cap then the error names upstream.max_response_bytes and its value', async () => {
    const big = join(dir, 'big.json');
    await writeFile(big, JSON.stringify({ products: [], padding: 'x'.repeat(4096) }));
    const config = JSON.parse(await readFile(join(dir, 'catalog.config.json'), 'utf8')) as {
      upstream: Record<string, unknown>;
    };
    config.upstream = { ...config.upstream, source: 'big.json', max_response_bytes: 1000 };
    await writeFile(join(dir, 'small-cap.config.json'), JSON.stringify(config));
    const report = await buildJson('--config', 'small-cap.config.json');
    expect(report.exitCode).toBe(1);
    expect(report.error?.code).toBe('UPSTREAM_TOO_LARGE');
    expect(report.error?.message).toContain('upstream.max_response_bytes');
    expect(report.error?.message).toContain('1000');
  });
});
