/**
 * The bundle as the hosts serve it, proven with their own engines rather than our reading of
 * their docs: the sample merchant, and a hostile 300-product Shopify-shaped merchant (quotes,
 * ampersands, angle brackets, emoji and non-Latin text in names; the bundle on its own host
 * with the catalog under `/api`), are each built with the real CLI and served once by
 * `preview`, once by `wrangler pages dev` and once by `netlify dev --offline`. Every contract
 * URL must answer 200 on all three with the same bytes, content type, CORS, caching and
 * Link; an unknown path must be 404 everywhere; and wrangler must have accepted every line
 * of both rules files (it drops a line it cannot read with only a warning).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleFor } from '../fixtures/upstream/make-products.js';
import { ensureCompiled } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { AGENT_FEED_PATHS, contractPaths } from '../helpers/contract-paths.js';
import { requires } from '../helpers/requirements.js';
import { ENGINES, startWrangler } from './engines.js';
import {
  ask,
  buildHostileBundle,
  buildWith,
  comparable,
  ruleCounts,
  type Served,
  serveEverywhere,
  stopAll,
} from './served.js';

/** The sample is model (b) without a proxy (`storefront-proxy.test.ts` adds one), its root the store's; the hostile bundle is model (a), with a landing page at `/`. */
const CASES = [
  {
    name: 'the sample bundle',
    base: '',
    slug: 'pomona',
    root: [] as string[],
    missing: ['/'],
    make: (root: string) => buildWith(root, 'sample', join(REPO_ROOT, 'catalog.config.json')),
    // A product page, which the live handler answers from its packed shards.
    pages: ['/kb/products/green-glow.md'],
  },
  {
    name: 'a hostile 300-product Shopify-shaped bundle',
    base: '/api',
    slug: 'hostile',
    root: ['/'],
    missing: [] as string[],
    make: buildHostileBundle,
    pages: [`/kb/products/${handleFor(0)}.md`, `/kb/products/${handleFor(299)}.md`],
  },
];

describe("the hosts' own engines", requires(ENGINES), () => {
  let root = '';

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-hosts-'));
  }, 60_000);

  afterAll(async () => {
    if (root !== '') await rm(root, { recursive: true, force: true });
  });

  describe.each(CASES)('$name', ({ base, slug, root: rootPaths, missing, make, pages }) => {
    let served: Served | undefined;

    beforeAll(async () => {
      const dir = await make(root);
      served = await serveEverywhere(dir, [
        ...contractPaths(base, slug),
        ...AGENT_FEED_PATHS,
        ...rootPaths,
        ...pages,
      ]);
    }, 240_000);

    afterAll(() => stopAll(served), 60_000);

    const current = (): Served => {
      if (served === undefined) throw new Error('not served');
      return served;
    };

    it('when every contract URL is fetched then preview, wrangler and netlify answer 200 with the same bytes and headers', async () => {
      const { preview, engines, paths } = current();
      for (const path of paths) {
        for (const method of ['GET', 'HEAD'] as const) {
          const reference = await ask(preview.url, path, method);
          expect(reference.status, `${method} ${path} on preview`).toBe(200);
          expect(reference.headers['access-control-allow-origin'], path).toBe('*');
          if (method === 'GET') expect(reference.bodyLength, path).toBeGreaterThan(0);
          for (const engine of engines) {
            const answer = await ask(engine.url, path, method);
            expect(comparable(answer, engine.name), `${method} ${path} on ${engine.name}`).toEqual(
              comparable(reference, engine.name),
            );
          }
        }
      }
    });

    it('when the catalog is fetched then every server advertises the API catalog in Link', async () => {
      const { preview, engines } = current();
      for (const url of [preview.url, ...engines.map((engine) => engine.url)]) {
        const answer = await ask(url, `${base}/agent-catalog`, 'GET');
        expect(answer.headers.link, url).toContain('rel="api-catalog"');
      }
    });

    it('when a path outside the contract is fetched then every server answers 404', async () => {
      const { preview, engines } = current();
      for (const path of [
        '/no-such-page',
        '/.well-known/no-such-document',
        `${base}/agent-catalog/nothing`,
        // A product page no product has: the handler claims the folder, not the path.
        '/kb/products/no-such-juice.md',
      ]) {
        for (const url of [preview.url, ...engines.map((engine) => engine.url)]) {
          expect((await ask(url, path, 'GET')).status, `${path} at ${url}`).toBe(404);
        }
      }
      // In model (b) `/` is the store's: the hosts answer 404, and preview alone answers its
      // own page about the bundle, never cached (docs/preview-and-check.md).
      for (const path of missing) {
        for (const engine of engines)
          expect((await ask(engine.url, path, 'GET')).status, engine.name).toBe(404);
        const own = await ask(preview.url, path, 'GET');
        expect(own.status).toBe(200);
        expect(own.headers['cache-control']).toContain('no-store');
      }
    });

    it('when a browser sends a CORS preflight then no server grants it, so preview claims nothing the hosts do not', async () => {
      const { preview, engines } = current();
      for (const url of [preview.url, ...engines.map((engine) => engine.url)]) {
        const res = await fetch(`${url}${base}/agent-catalog`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://agent.example',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'x-agent',
          },
        });
        await res.arrayBuffer();
        expect(res.headers.get('access-control-allow-methods'), url).toBeNull();
        expect(res.headers.get('access-control-allow-headers'), url).toBeNull();
      }
    });

    it('when wrangler reads the rules files then it accepts every line of both', async () => {
      const { dir, engines } = current();
      const counts = ruleCounts(
        await readFile(join(dir, '_headers'), 'utf8'),
        await readFile(join(dir, '_redirects'), 'utf8'),
      );
      const output = engines.find((engine) => engine.name === 'wrangler')?.output() ?? '';
      expect(output).not.toMatch(/invalid (redirect|header) rule/i);
      expect(output).toContain(`Parsed ${counts.redirects} valid redirect rules`);
      expect(output).toContain(`Parsed ${counts.headers} valid header rules`);
    });
  });

  it("when _redirects carries Netlify's forced 200! then wrangler drops the line and the catalog is 404 there", async () => {
    const dir = await buildWith(root, 'forced', join(REPO_ROOT, 'catalog.config.json'));
    const file = join(dir, '_redirects');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^(\/agent-catalog\s+\S+\s+200)$/m, '$1!'));
    const wrangler = await startWrangler(dir);
    try {
      expect(wrangler.output()).toMatch(/Found 1 invalid redirect rule/);
      expect((await ask(wrangler.url, '/agent-catalog', 'GET')).status).toBe(404);
    } finally {
      await wrangler.stop();
    }
  }, 180_000);
});
