/**
 * Parted documents on the hosts' own engines: the sample bundle built by the real CLI with
 * small parts (`AGENT_CATALOG_PART_BYTES`), so the catalog, `kb/products.json`, the feed, the
 * knowledge base, `llms-full.txt` and the ACP feed each have several parts. `preview`,
 * `wrangler pages dev` (the `_worker.js` reading parts through `env.ASSETS`) and
 * `netlify dev --offline` (the function fetching them from the site) must answer each
 * parted URL with the whole document, joined here from the parts on disk, and agree on
 * headers, HEAD, If-None-Match and Range.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTS_INDEX_PATH, type PartsIndex, type PartsManifest } from '../../live/bundle-parts.js';
import { ensureCompiled, runCli } from '../generator/cli/run-cli.js';
import { REPO_ROOT } from '../generator/pipeline/helpers.js';
import { requires } from '../helpers/requirements.js';
import { ENGINES } from './engines.js';
import { ask, comparable, type Served, serveEverywhere, stopAll } from './served.js';

const TIMEOUT = { signal: () => AbortSignal.timeout(20_000) };

async function fetchBytes(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(url, { method, headers, redirect: 'manual', signal: TIMEOUT.signal() });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('parted documents on the hosts engines', requires(ENGINES), () => {
  let root: string;
  let served: Served | undefined;
  let index: PartsIndex;
  const documents = new Map<string, Buffer>();
  /** Each parted URL's entity tag, from its parts on disk. */
  const etags = new Map<string, string>();

  beforeAll(async () => {
    await ensureCompiled();
    root = await mkdtemp(join(tmpdir(), 'agent-catalog-parted-'));
    const out = join(root, 'sample');
    const run = await runCli(
      ['build', '--quiet', '--config', join(REPO_ROOT, 'catalog.config.json'), '--out', out],
      {
        cwd: root,
        env: { AGENT_CATALOG_PART_BYTES: '2048' },
        limitMs: 60_000,
      },
    );
    if (run.code !== 0) throw new Error(`build exited ${run.code}: ${run.stderr}`);
    index = JSON.parse(await readFile(join(out, PARTS_INDEX_PATH), 'utf8')) as PartsIndex;
    for (const [url, manifestPath] of Object.entries(index.documents)) {
      const manifest = JSON.parse(await readFile(join(out, manifestPath), 'utf8')) as PartsManifest;
      const parts = await Promise.all(
        manifest.parts.map((part) =>
          part.path === undefined ? Buffer.from(part.text ?? '', 'utf8') : readFile(join(out, part.path)),
        ),
      );
      documents.set(url, Buffer.concat(parts));
      const lines = parts.map(
        (part) => `${part.length} ${createHash('sha256').update(part).digest('hex')}\n`,
      );
      etags.set(url, createHash('sha256').update(lines.join('')).digest('hex'));
    }
    served = await serveEverywhere(out, Object.keys(index.documents));
  }, 240_000);
  afterAll(async () => {
    await stopAll(served);
    if (root) await rm(root, { recursive: true, force: true });
  });

  function servers(): { name: 'preview' | 'wrangler' | 'netlify'; url: string }[] {
    if (served === undefined) throw new Error('not served');
    return [
      { name: 'preview', url: served.preview.url },
      ...served.engines.map(({ name, url }) => ({ name, url })),
    ];
  }

  it('when the sample is built with small parts then its large documents have several parts each', () => {
    for (const url of [
      '/agent-catalog',
      '/kb/products.json',
      '/feed.xml',
      '/llms-full.txt',
      '/feeds/acp/products.jsonl',
    ]) {
      expect(documents.get(url)?.length ?? 0, url).toBeGreaterThan(4096);
    }
  });

  it('when each parted URL is fetched then every engine answers the whole document with the same headers', async () => {
    for (const [url, whole] of documents) {
      const sha256 = createHash('sha256').update(whole).digest('hex');
      const answers = await Promise.all(
        servers().map(async (server) => ({ server, answer: await ask(server.url, url, 'GET') })),
      );
      for (const { server, answer } of answers) {
        expect(answer.status, `${server.name} ${url}`).toBe(200);
        expect(answer.bodySha256, `${server.name} ${url}`).toBe(sha256);
      }
      const [first, ...rest] = answers;
      if (first === undefined) throw new Error('no server');
      for (const { server, answer } of rest) {
        expect(comparable(answer, server.name), `${server.name} ${url}`).toEqual(
          comparable(first.answer, server.name),
        );
      }
    }
  }, 120_000);

  it('when HEAD, If-None-Match and Range are sent then every engine answers alike', async () => {
    const url = '/feed.xml';
    const whole = documents.get(url) ?? Buffer.alloc(0);
    for (const server of servers()) {
      const label = `${server.name} ${url}`;
      const head = await fetchBytes(`${server.url}${url}`, {}, 'HEAD');
      expect(head.status, label).toBe(200);
      expect(head.body.length, label).toBe(0);
      const etag = head.headers.get('etag');
      // The digest of the parts: SHA-256 over one "<length> <sha256>" line a part.
      expect(etag, label).toBe(`"${etags.get(url)}"`);
      expect((await fetchBytes(`${server.url}${url}`, { 'if-none-match': etag ?? '' })).status, label).toBe(
        304,
      );
      const range = await fetchBytes(`${server.url}${url}`, { range: 'bytes=1000-5999' });
      expect(range.status, label).toBe(206);
      expect(range.body.equals(whole.subarray(1000, 6000)), label).toBe(true);
      expect(range.headers.get('content-range'), label).toBe(`bytes 1000-5999/${whole.length}`);
      const beyond = await fetchBytes(`${server.url}${url}`, { range: `bytes=${whole.length}-` });
      expect(beyond.status, label).toBe(416);
    }
  }, 120_000);
});
