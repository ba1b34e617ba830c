import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { startPreviewServer } from '../../../generator/preview/server.js';
import { check, problemsOf, tamper } from '../../helpers/run-check.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';

/** A free loopback port, so the bundle can be built for the URL it will be served at. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function bundleFor(siteUrl: string): Promise<TempBundle> {
  const merchant = { ...SAMPLE_CONFIG_INPUT.merchant, url: siteUrl };
  const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, merchant });
  return writeTempBundle(emitBundle(makeSamplePlan({ config })));
}

describe('agent-catalog check on a directory', () => {
  let bundle: TempBundle;

  beforeAll(async () => {
    bundle = await bundleFor('https://shop.pomona.example');
  });
  afterAll(async () => {
    await bundle?.cleanup();
  });

  test('when every document is valid then it exits 0 and says so', async () => {
    const run = await check(bundle.dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/all valid/);
    expect(problemsOf(await check(bundle.dir, true))).toEqual([]);
  });

  test('when a feed price was changed then it exits 1 and names the feed', async () => {
    await tamper(bundle.dir, 'feed.xml', (body) => body.replace('42.00 USD', '41.00 USD'));
    const run = await check(bundle.dir);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n')).toContain('feed.xml');
    const problems = problemsOf(await check(bundle.dir, true));
    expect(problems).toContainEqual(expect.objectContaining({ path: 'feed.xml', rule: 'consistency' }));
    await tamper(bundle.dir, 'feed.xml', (body) => body.replace('41.00 USD', '42.00 USD'));
  });

  test('when a document is missing then it exits 1 and names it', async () => {
    const file = join(bundle.dir, '.well-known', 'agent-card.json');
    const body = await readFile(file, 'utf8');
    await rm(file);
    const problems = problemsOf(await check(bundle.dir, true));
    expect(problems).toContainEqual(
      expect.objectContaining({ path: '.well-known/agent-card.json', rule: 'missing' }),
    );
    await writeFile(file, body);
    expect((await check(bundle.dir)).status).toBe(0);
  });

  test('when the target is an http URL that does not parse then it exits 2 without a report', async () => {
    const run = await check('http://exa mple.com');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
  });

  test('when the directory does not exist then it exits 2 without a report', async () => {
    const run = await check(join(bundle.dir, 'no-such-dir'));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toBe('');
  });
});

describe('agent-catalog check on a live site served by preview', () => {
  let bundle: TempBundle;
  let server: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    const port = await freePort();
    bundle = await bundleFor(`http://127.0.0.1:${port}`);
    server = await startPreviewServer({ dir: bundle.dir, port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await bundle?.cleanup();
  });

  test('when the site serves the bundle as built then it exits 0', async () => {
    const run = await check(server.url, true);
    expect(problemsOf(run)).toEqual([]);
    expect(run.status).toBe(0);
  });

  test('when a served document disagrees with the catalog then it exits 1 naming it', async () => {
    await tamper(bundle.dir, 'kb/products.json', (body) =>
      body.replace('"price": "42.00"', '"price": "40.00"'),
    );
    const run = await check(`${server.url}/`, true);
    expect(run.status).toBe(1);
    expect(problemsOf(run)).toContainEqual(
      expect.objectContaining({ path: 'kb/products.json', rule: 'consistency' }),
    );
    await tamper(bundle.dir, 'kb/products.json', (body) =>
      body.replace('"price": "40.00"', '"price": "42.00"'),
    );
  });

  test('when the served UCP profile lacks payment_handlers then it exits 1 naming it', async () => {
    await tamper(bundle.dir, '.well-known/ucp.json', (body) =>
      body.replace('"payment_handlers": {}', '"payment": {}'),
    );
    const run = await check(server.url, true);
    expect(run.status).toBe(1);
    expect(problemsOf(run)).toContainEqual(
      expect.objectContaining({ path: '.well-known/ucp.json', rule: 'ucp-profile' }),
    );
    await tamper(bundle.dir, '.well-known/ucp.json', (body) =>
      body.replace('"payment": {}', '"payment_handlers": {}'),
    );
  });

  test('when the sitemap index lists lastmod before loc then check still fetches the child sitemap', async () => {
    const urlset = await readFile(join(bundle.dir, 'sitemap.xml'), 'utf8');
    await writeFile(join(bundle.dir, 'sitemap-1.xml'), urlset);
    await writeFile(
      join(bundle.dir, 'sitemap.xml'),
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<sitemap><lastmod>2026-11-21</lastmod><loc>${server.url}/sitemap-1.xml</loc></sitemap>` +
        '</sitemapindex>\n',
    );
    try {
      const problems = problemsOf(await check(server.url, true));
      expect(problems).not.toContainEqual(expect.objectContaining({ path: 'sitemap.xml' }));
      expect(problems).not.toContainEqual(expect.objectContaining({ path: 'sitemap-1.xml', rule: 'status' }));
    } finally {
      await writeFile(join(bundle.dir, 'sitemap.xml'), urlset);
      await rm(join(bundle.dir, 'sitemap-1.xml'));
    }
  });
});

describe('agent-catalog check on a misconfigured live site', () => {
  let server: Server;
  let files: Map<string, string>;
  let site: string;

  beforeAll(async () => {
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    const merchant = { ...SAMPLE_CONFIG_INPUT.merchant, url: site };
    const artifacts = emitBundle(
      makeSamplePlan({ config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, merchant }) }),
    );
    files = new Map(artifacts.map((artifact) => [artifact.publicPath ?? `/${artifact.path}`, artifact.body]));
    // A host that answers every path with 200 and a generic type, without CORS: a catch-all.
    server = createHttpServer((request, response) => {
      const body = files.get(request.url ?? '') ?? files.get('/api/') ?? '';
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  test('when unknown paths answer 200 and headers are missing then each is reported', async () => {
    const run = await check(site, true);
    expect(run.status).toBe(1);
    const kinds = new Set(problemsOf(run).map((problem) => `${problem.path} ${problem.rule}`));
    expect(kinds).toContain('_redirects catch-all');
    expect(kinds).toContain('api/openapi.json cors');
    expect(kinds).toContain('api/openapi.json content-type');
    expect(kinds).toContain('.well-known/api-catalog.json content-type');
    expect(kinds).toContain('agent-catalog.json cache');
    expect(kinds).toContain('agent-catalog.json link');
  });
});
