/**
 * How the preview answers for the state of the bundle on disk: a missing or broken
 * catalog (500 with the spec's JSON error body), a rebuild that swaps the directory by
 * rename or rewrites the rules (served at once), and a directory that is not a bundle
 * (refused at start with FLAG_INVALID, which the CLI maps to exit 2).
 */
import { mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { startPreviewServer } from '../../../generator/preview/server.js';
import { writeBundle, writeTempBundle } from '../../helpers/write-bundle.js';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

let served: ServedBundle | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function serveFixture(): Promise<ServedBundle> {
  served = await serveTempBundle(makeFixtureBundle());
  return served;
}

function expectJsonError(res: { status: number; headers: Record<string, unknown>; body: string }): void {
  expect(res.headers['content-type']).toBe('application/json');
  const body: unknown = JSON.parse(res.body);
  expect(body).toEqual({ error: expect.any(String) });
  expect(res.body).not.toMatch(/\bat .+:\d+:\d+/);
}

describe('preview and the catalog on disk', () => {
  it('when the catalog file is missing then the catalog answers 500 with a JSON error body', async () => {
    const { dir, url } = await serveFixture();
    await unlink(join(dir, 'agent-catalog.json'));
    const res = await rawRequest(url, '/agent-catalog');
    expect(res.status).toBe(500);
    expectJsonError(res);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['truncated JSON', '{"products": ['],
    ['an HTML page', '<html>oops</html>'],
    ['JSON without products', '{"merchant": {}}'],
  ])(
    'when the catalog file holds %s then the catalog answers 500 with a JSON error body',
    async (_name, text) => {
      const { dir, url } = await serveFixture();
      await writeFile(join(dir, 'agent-catalog.json'), text);
      const res = await rawRequest(url, '/agent-catalog');
      expect(res.status).toBe(500);
      expectJsonError(res);
      expect(header(res, 'cache-control')).toBe('no-store');
    },
  );

  it('when a served catalog is broken and then mended then each answer follows the bytes on disk', async () => {
    const { dir, url } = await serveFixture();
    const file = join(dir, 'agent-catalog.json');
    const good = await readFile(file, 'utf8');
    expect((await rawRequest(url, '/agent-catalog')).status).toBe(200);
    await writeFile(file, '{"products": [');
    const broken = await rawRequest(url, '/agent-catalog');
    expect(broken.status).toBe(500);
    expectJsonError(broken);
    await writeFile(file, good);
    expect((await rawRequest(url, '/agent-catalog')).status).toBe(200);
  });

  it('when a rebuild swaps the bundle directory by rename then the new bytes are served', async () => {
    const { dir, url } = await serveFixture();
    const before = await rawRequest(url, '/llms.txt');
    const staging = `${dir}.staging`;
    await writeBundle(
      staging,
      makeFixtureBundle().map((f) => (f.path === 'llms.txt' ? { ...f, body: 'v2\n' } : f)),
    );
    await rename(dir, `${dir}.old`);
    await rename(staging, dir);
    const after = await rawRequest(url, '/llms.txt');
    expect(after.status).toBe(200);
    expect(after.body).toBe('v2\n');
    expect(header(after, 'etag')).not.toBe(header(before, 'etag'));
    await rm(`${dir}.old`, { recursive: true, force: true });
  });

  it('when _headers changes then the new rules apply to the next request', async () => {
    const { dir, url } = await serveFixture();
    await writeFile(
      join(dir, '_headers'),
      '/llms.txt\n  Content-Type: text/plain; charset=utf-8\n  X-Rebuilt: yes\n',
    );
    const res = await rawRequest(url, '/llms.txt');
    expect(header(res, 'x-rebuilt')).toBe('yes');
    expect(header(res, 'access-control-allow-origin')).toBeUndefined();
  });

  it('when _headers becomes unparseable mid-run then requests get a JSON 500, not a stack', async () => {
    const { dir, url } = await serveFixture();
    await writeFile(join(dir, '_headers'), 'not a path\n');
    const res = await rawRequest(url, '/llms.txt');
    expect(res.status).toBe(500);
    expectJsonError(res);
  });
});

describe('preview refuses a directory that is not a bundle', () => {
  it('when --dir does not exist then start fails with FLAG_INVALID', async () => {
    const error = await startPreviewServer({ dir: join(tmpdir(), 'no-such-bundle-dir-x'), port: 0 }).catch(
      (e: unknown) => e,
    );
    expect(isCatalogError(error, 'FLAG_INVALID')).toBe(true);
  });

  it('when the directory has no _headers then start fails with FLAG_INVALID', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-nobundle-'));
    await writeFile(join(dir, 'agent-catalog.json'), '{}');
    const error = await startPreviewServer({ dir, port: 0 }).catch((e: unknown) => e);
    expect(isCatalogError(error, 'FLAG_INVALID')).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });

  it('when --dir is a file then start fails with FLAG_INVALID', async () => {
    const bundle = await writeTempBundle(makeFixtureBundle());
    const error = await startPreviewServer({ dir: join(bundle.dir, 'llms.txt'), port: 0 }).catch(
      (e: unknown) => e,
    );
    await bundle.cleanup();
    expect(isCatalogError(error, 'FLAG_INVALID')).toBe(true);
  });
});
