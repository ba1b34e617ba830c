/**
 * Deployment model (b) on the hosts' own engines: the sample merchant built with
 * `storefront_origin` naming a storefront stand-in on a loopback port (nothing leaves the
 * machine). `netlify dev --offline` must serve every contract URL from the bundle, exactly as
 * `preview` does, and proxy every other path (the home page, a product page) to the stand-in
 * through the last rule of `_redirects`. `wrangler pages dev` cannot proxy from `_redirects`:
 * it must drop that one line with its own warning, keep every other rule, serve every
 * contract URL the same, answer 404 elsewhere, and never reach the stand-in. `preview`
 * proxies nothing either (it answers 502, saying so).
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCompiled } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { contractPaths } from '../helpers/contract-paths.js';
import { requires } from '../helpers/requirements.js';
import { ENGINES, startWrangler } from './engines.js';
import {
  ask,
  buildWith,
  comparable,
  engineNamed,
  ruleCounts,
  type Served,
  serveEverywhere,
  stopAll,
} from './served.js';

/** The storefront's origin server, stood in for on loopback: it names every path it was asked for. */
interface StandIn {
  origin: string;
  seen: string[];
  close(): Promise<void>;
}

const STAND_IN_MARK = 'storefront stand-in';

async function startStandIn(): Promise<StandIn> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>${STAND_IN_MARK}</title><p>${STAND_IN_MARK}: ${req.url ?? ''}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The repository's sample config, its relative paths made absolute, with the proxy turned on. */
async function writeModelBConfig(root: string, origin: string): Promise<string> {
  const sample = JSON.parse(await readFile(join(REPO_ROOT, 'catalog.config.json'), 'utf8')) as {
    upstream: Record<string, unknown>;
  };
  const file = join(root, 'model-b.config.json');
  await writeFile(
    file,
    JSON.stringify({
      ...sample,
      storefront_origin: origin,
      content_dir: join(REPO_ROOT, 'sample/content'),
      upstream: { ...sample.upstream, source: join(REPO_ROOT, 'sample/upstream/products.json') },
    }),
  );
  return file;
}

describe("model (b): the storefront proxy on the hosts' own engines", requires(ENGINES), () => {
  let root = '';
  let standIn: StandIn | undefined;
  let served: Served | undefined;
  let productPath = '';

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-model-b-'));
    standIn = await startStandIn();
    const dir = await buildWith(root, 'model-b', await writeModelBConfig(root, standIn.origin));
    const catalog = JSON.parse(await readFile(join(dir, 'agent-catalog.json'), 'utf8')) as {
      products: { url: string }[];
    };
    productPath = new URL(catalog.products[0]?.url ?? 'https://missing.example/none').pathname;
    served = await serveEverywhere(dir, contractPaths('', 'pomona'));
  }, 240_000);

  afterAll(async () => {
    await stopAll(served);
    await standIn?.close();
    if (root !== '') await rm(root, { recursive: true, force: true });
  }, 60_000);

  const current = (): { served: Served; standIn: StandIn } => {
    if (served === undefined || standIn === undefined) throw new Error('not served');
    return { served, standIn };
  };

  it('when the bundle is built then the proxy to the stand-in is the last line of _redirects', async () => {
    const { served, standIn } = current();
    const lines = (await readFile(join(served.dir, '_redirects'), 'utf8')).trimEnd().split('\n');
    expect(lines.at(-1)?.split(/\s+/)).toEqual(['/*', `${standIn.origin}/:splat`, '200']);
  });

  it('when every contract URL is fetched then all three serve it from the bundle, and the stand-in is never asked', async () => {
    const { served, standIn } = current();
    const before = standIn.seen.length;
    for (const path of served.paths) {
      for (const method of ['GET', 'HEAD'] as const) {
        const reference = await ask(served.preview.url, path, method);
        expect(reference.status, `${method} ${path} on preview`).toBe(200);
        expect(reference.body, path).not.toContain(STAND_IN_MARK);
        for (const engine of served.engines) {
          const answer = await ask(engine.url, path, method);
          expect(comparable(answer, engine.name), `${method} ${path} on ${engine.name}`).toEqual(
            comparable(reference, engine.name),
          );
        }
      }
    }
    expect(standIn.seen.slice(before)).toEqual([]);
  });

  it('when a path outside the bundle is fetched from netlify dev then the stand-in answers it', async () => {
    const { served, standIn } = current();
    const netlify = engineNamed(served, 'netlify');
    for (const path of ['/', productPath, '/collections/all?page=2']) {
      const answer = await ask(netlify.url, path, 'GET');
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).toContain(`${STAND_IN_MARK}: ${path}`);
      expect(standIn.seen, path).toContain(path);
    }
  });

  it('when wrangler reads _redirects then it drops exactly the proxy line, with a warning naming it, and keeps every other rule', async () => {
    const { served, standIn } = current();
    const wrangler = engineNamed(served, 'wrangler');
    const redirectsText = await readFile(join(served.dir, '_redirects'), 'utf8');
    const counts = ruleCounts(await readFile(join(served.dir, '_headers'), 'utf8'), redirectsText);
    const lastLine = redirectsText.trimEnd().split('\n').length;
    const output = stripVTControlCharacters(wrangler.output());
    expect(output).toContain('Found 1 invalid redirect rule');
    // The stand-in is plain http on loopback, so wrangler's URL check refuses it before its proxy check.
    expect(output).toContain(
      'URLs should either be relative (e.g. begin with a forward-slash), or use HTTPS',
    );
    expect(output).toMatch(new RegExp(`_redirects:${lastLine} \\| /\\*\\s+${standIn.origin}/:splat\\s+200`));
    expect(output).toContain(`Parsed ${counts.redirects - 1} valid redirect rules`);
    expect(output).toContain(`Parsed ${counts.headers} valid header rules`);
    expect(output).not.toMatch(/invalid header rule/i);
  });

  it('when a path outside the bundle is fetched from wrangler or preview then neither reaches the stand-in', async () => {
    const { served, standIn } = current();
    const before = standIn.seen.length;
    expect((await ask(engineNamed(served, 'wrangler').url, productPath, 'GET')).status).toBe(404);
    expect((await ask(engineNamed(served, 'wrangler').url, '/', 'GET')).status).toBe(404);
    const preview = await ask(served.preview.url, productPath, 'GET');
    expect(preview.status).toBe(502);
    expect(preview.body).toContain('proxy rules are not served by preview');
    expect(standIn.seen.slice(before)).toEqual([]);
  });

  it('when the storefront origin is https, as in production, then wrangler drops the line as a proxy it cannot make', async () => {
    const origin = 'https://pomona-juice.myshopify.com';
    const dir = await buildWith(root, 'model-b-https', await writeModelBConfig(root, origin));
    // wrangler drops the line at parse time, so nothing ever connects to that origin.
    const wrangler = await startWrangler(dir);
    try {
      // wrangler underlines the URL with terminal codes, even with NO_COLOR set.
      const output = stripVTControlCharacters(wrangler.output());
      expect(output).toContain('Found 1 invalid redirect rule');
      expect(output).toContain(
        `Proxy (200) redirects can only point to relative paths. Got ${origin}/:splat`,
      );
      expect((await ask(wrangler.url, '/agent-catalog', 'GET')).status).toBe(200);
      expect((await ask(wrangler.url, productPath, 'GET')).status).toBe(404);
    } finally {
      await wrangler.stop();
    }
  }, 180_000);
});
