/**
 * Parted documents end to end: the sample merchant built with small parts (so every large
 * document has several), served by `preview` (the Node shell `serve` shares) over real HTTP
 * beside the same bundle built whole. Each parted URL must answer the whole document byte
 * for byte with the static file's headers; HEAD, If-None-Match and Range must behave; a
 * rebuild reads the parted catalog back, a one-product change rewrites few parts, and
 * `check`'s reader joins the parts for the gate.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildResult, build } from '../../../generator/build.js';
import { readBundleDir } from '../../../generator/check/read-dir.js';
import { readBundleDirShape } from '../../../generator/hosting/bundle-shape.js';
import { silentLogger } from '../../../generator/logger.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import { type PreviewServer, startPreviewServer } from '../../../generator/preview/server.js';
import { validateBundle } from '../../../generator/validate/index.js';
import { PARTS_INDEX_PATH, type PartsIndex, type PartsManifest } from '../../../live/bundle-parts.js';
import { COMPARED as ENGINE_COMPARED } from '../../hosts/served.js';
import { FIXED_NOW, makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';

const SMALL = partSizesAround(1024);
/** The headers the engine tests compare, and the usage terms beside them. */
const COMPARED = [...ENGINE_COMPARED, 'tdm-reservation'];

interface Sample {
  source: string;
  upstream: { products: { variants: { price: string }[] }[] };
}

async function buildSample(out: string, source: string, parted: boolean): Promise<BuildResult> {
  return build({
    configPath: 'catalog.config.json',
    cwd: REPO_ROOT,
    out,
    flags: { source },
    write: true,
    logger: silentLogger,
    now: () => FIXED_NOW,
    ...(parted ? { partSizes: SMALL } : {}),
  });
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(url, { method, headers, signal: AbortSignal.timeout(20_000) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('parted documents are stored in parts and served whole', () => {
  let workspace: { dir: string; cleanup: () => Promise<void> };
  let sample: Sample;
  let parted: BuildResult;
  let whole: PreviewServer;
  let partedServer: PreviewServer;
  let index: PartsIndex;
  const partedDir = () => join(workspace.dir, 'parted');

  beforeAll(async () => {
    workspace = await makeWorkspace();
    const source = join(workspace.dir, 'products.json');
    const text = await readFile(join(REPO_ROOT, 'sample/upstream/products.json'), 'utf8');
    await writeFile(source, text);
    sample = { source, upstream: JSON.parse(text) as Sample['upstream'] };
    parted = await buildSample(partedDir(), source, true);
    await buildSample(join(workspace.dir, 'whole'), source, false);
    index = JSON.parse(await readFile(join(partedDir(), PARTS_INDEX_PATH), 'utf8')) as PartsIndex;
    partedServer = await startPreviewServer({ dir: partedDir(), port: 0, logger: silentLogger });
    whole = await startPreviewServer({ dir: join(workspace.dir, 'whole'), port: 0, logger: silentLogger });
  }, 120_000);
  afterAll(async () => {
    await partedServer?.close();
    await whole?.close();
    await workspace?.cleanup();
  });

  it('when the parts are small then the catalog, kb, feed, knowledge base, llms-full and ACP feed are parted', async () => {
    const urls = Object.keys(index.documents);
    for (const url of [
      '/agent-catalog',
      '/agent-catalog.json',
      '/kb/products.json',
      '/feed.xml',
      '/llms-full.txt',
      '/feeds/acp/products.jsonl',
    ]) {
      expect(urls).toContain(url);
    }
    const manifest = JSON.parse(
      await readFile(join(partedDir(), index.documents['/feed.xml'] ?? ''), 'utf8'),
    ) as PartsManifest;
    expect(manifest.parts.length).toBeGreaterThan(2);
    for (const part of manifest.parts) expect(part.length).toBeLessThanOrEqual(SMALL.max);
    // No whole copy beside the parts.
    expect(parted.artifacts.some((artifact) => artifact.path === 'feed.xml')).toBe(false);
    // The host check counts the parts as files, and the most parts of one document as fetches.
    const shape = await readBundleDirShape(partedDir());
    const manifests = await Promise.all(
      [...new Set(Object.values(index.documents))].map(
        async (path) => JSON.parse(await readFile(join(partedDir(), path), 'utf8')) as PartsManifest,
      ),
    );
    // A head or tail written in the manifest is no fetch.
    const most = Math.max(
      ...manifests.map((item) => item.parts.filter((part) => part.path !== undefined).length),
    );
    expect(shape.mostParts.parts).toBe(most);
    expect(shape.largestStreamed.bytes).toBe(Math.max(...manifests.map((item) => item.length)));
    expect(shape.files).toBe(parted.artifacts.length);
  });

  it('when the catalog is parted then its head is in its manifest and the records it shares with kb/products.json are the same files', async () => {
    const manifestOf = async (url: string) =>
      JSON.parse(await readFile(join(partedDir(), index.documents[url] ?? ''), 'utf8')) as PartsManifest;
    const catalog = await manifestOf('/agent-catalog');
    const kb = await manifestOf('/kb/products.json');
    const [head] = catalog.parts;
    expect(head?.path).toBeUndefined();
    expect(head?.text).toContain(`"generated": "${FIXED_NOW.toISOString()}"`);
    const files = (manifest: PartsManifest) =>
      manifest.parts.flatMap((part) => (part.path ? [part.path] : []));
    for (const path of [...files(catalog), ...files(kb)])
      expect(path).toMatch(/^_parts\/by-sha256\/[0-9a-f]{32}\.part$/);
    const shared = files(catalog).filter((path) => files(kb).includes(path));
    expect(shared.length).toBeGreaterThan(0);
    // Stored once: the bundle lists each shared file one time.
    for (const path of shared)
      expect(parted.artifacts.filter((artifact) => artifact.path === path)).toHaveLength(1);
  });

  it('when a parted URL is fetched then it is the whole document with the static headers, and the ETag is the digest of its parts', async () => {
    for (const [url, manifestPath] of Object.entries(index.documents)) {
      const [a, b] = await Promise.all([get(`${partedServer.url}${url}`), get(`${whole.url}${url}`)]);
      expect(a.status, url).toBe(200);
      expect(a.body.equals(b.body), url).toBe(true);
      for (const name of COMPARED) expect(a.headers.get(name), `${url} ${name}`).toBe(b.headers.get(name));
      // The parts on disk, hashed here: the ETag is SHA-256 over one "<length> <sha256>" line a part.
      const manifest = JSON.parse(await readFile(join(partedDir(), manifestPath), 'utf8')) as PartsManifest;
      const parts = await Promise.all(
        manifest.parts.map((part) =>
          part.path === undefined
            ? Buffer.from(part.text ?? '', 'utf8')
            : readFile(join(partedDir(), part.path)),
        ),
      );
      expect(Buffer.concat(parts).equals(a.body), url).toBe(true);
      const lines = parts.map(
        (part) => `${part.length} ${createHash('sha256').update(part).digest('hex')}\n`,
      );
      expect(a.headers.get('etag')).toBe(`"${createHash('sha256').update(lines.join('')).digest('hex')}"`);
      expect(a.headers.get('content-length')).toBe(String(a.body.length));
    }
  });

  it('when HEAD, If-None-Match or Range is sent then the answers are 200 without a body, 304, 206 and 416', async () => {
    const url = `${partedServer.url}/feed.xml`;
    const full = await get(url);
    const head = await get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(full.body.length));
    const etag = full.headers.get('etag') ?? '';
    expect((await get(url, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    for (const [range, start, end] of [
      ['bytes=10-2500', 10, 2500],
      [`bytes=${full.body.length - 700}-`, full.body.length - 700, full.body.length - 1],
      ['bytes=-300', full.body.length - 300, full.body.length - 1],
    ] as const) {
      const part = await get(url, { range });
      expect(part.status, range).toBe(206);
      expect(part.body.equals(full.body.subarray(start, end + 1)), range).toBe(true);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${full.body.length}`);
    }
    const beyond = await get(url, { range: `bytes=${full.body.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${full.body.length}`);
    expect((await get(url, { range: 'bytes=0-1,5-9' })).status).toBe(200);
    expect((await get(url, {}, 'POST')).status).toBe(405);
  });

  it('when the bundle is read back for check then the gate finds every parted document whole and valid', async () => {
    const files = await readBundleDir(partedDir());
    expect(files.get('agent-catalog.json')).toBe(
      (await get(`${partedServer.url}/agent-catalog`)).body.toString('utf8'),
    );
    expect(validateBundle(files)).toEqual([]);
  });

  it('when nothing changed then a rebuild writes nothing; when one price changed then few parts are written', async () => {
    const again = await buildSample(partedDir(), sample.source, true);
    expect(again.files.written).toBe(0);
    const upstream = structuredClone(sample.upstream);
    const variant = upstream.products[3]?.variants[0];
    if (variant === undefined) throw new Error('the sample has no fourth product');
    variant.price = '123.45';
    await writeFile(sample.source, JSON.stringify(upstream));
    const changed = await build({
      configPath: 'catalog.config.json',
      cwd: REPO_ROOT,
      out: partedDir(),
      flags: { source: sample.source },
      write: true,
      logger: silentLogger,
      now: () => new Date(FIXED_NOW.getTime() + 60_000),
      partSizes: SMALL,
    });
    expect(changed.changes.price.length).toBeGreaterThan(0);
    const partsTotal = changed.artifacts.filter((artifact) => artifact.path.endsWith('.part')).length;
    // Most parts are kept: the changed price touches a few parts of each parted document.
    expect(changed.files.unchanged).toBeGreaterThan(partsTotal / 2);
    const catalog = JSON.parse((await get(`${partedServer.url}/agent-catalog`)).body.toString('utf8')) as {
      products: { price: string }[];
    };
    expect(catalog.products.map((product) => product.price)).toContain('123.45');
  });
});
