/**
 * Handles too long for a file name (issue 31: one store's odd but valid data must never
 * stop publication). Shopify takes a handle of 255 characters, and a 255-letter Arabic
 * handle is 510 bytes of UTF-8, while a file name takes 255 bytes: written as
 * `kb/products/<slug>.md`, the page stopped the whole build with ENAMETOOLONG when the
 * live surface was off. The same store is built here with the live surface off (a file
 * per page) and on (pages packed), written to disk and served by preview over real HTTP:
 * both builds publish, no file name in either bundle is over 255 bytes, every page URL the
 * sitemap and llms.txt publish answers with that product's page in both bundles, a slug
 * whose `<slug>.md` fits keeps its URL to the byte, and a content file named after a long
 * product's page is merged into it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import { type PreviewServer, startPreviewServer } from '../../../generator/preview/server.js';
import { makeShopifyProducts } from '../../fixtures/upstream/make-products.js';
import { FIXED_NOW, makeWorkspace } from '../pipeline/helpers.js';
import { storeBuildOptions, writeStoreConfig, writeStoreProducts } from '../pipeline/synthetic-store.js';

const FILE_NAME_BYTES = 255;
const ARABIC = 'كابلشحنسريعومتين';

/** `count` Arabic letters (2 bytes each in UTF-8), cycling through a few. */
function arabic(count: number): string {
  return Array.from({ length: count }, (_, index) => ARABIC[index % ARABIC.length]).join('');
}

/** Handles by what they test; each stands in for one product of the store. */
const HANDLES = {
  /** Shopify's longest handle, all Arabic letters: 510 bytes. */
  longest: arabic(255),
  /** The same first 200 letters, then others: must not share the page of `longest`. */
  sameStart: `${arabic(200)}-${'ب'.repeat(54)}`,
  /** Harakat on every letter (a letter and its mark are one character to a reader): 250 characters, 500 bytes. */
  marked: 'كَ'.repeat(125),
  /** `<slug>.md` is exactly 255 bytes (126 two-byte letters): a file name, kept as it is. */
  fits: arabic(126),
  /** One letter more, 257 bytes: over. */
  overByTwo: arabic(127),
  /** 252 ASCII letters: 255 bytes with `.md`. */
  asciiFits: 'a'.repeat(252),
} as const;
type Case = keyof typeof HANDLES;
const BUNDLES = ['files', 'packed'] as const;
type Bundle = (typeof BUNDLES)[number];

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Every file and folder name under `dir`, with its path, however deep. */
async function namesUnder(dir: string): Promise<{ path: string; name: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((entry) => ({ path: join(entry.parentPath, entry.name), name: entry.name }));
}

/** The product page URLs a published document (sitemap.xml, llms.txt) lists. */
function pageUrls(text: string): string[] {
  return [...text.matchAll(/https:\/\/[^\s<>)]+\/kb\/products\/[^\s<>)]+\.md/g)].map((match) => match[0]);
}

describe('a product whose handle is too long for a file name', () => {
  let workspace: { dir: string; cleanup: () => Promise<void> } | undefined;
  const servers: Partial<Record<Bundle, PreviewServer>> = {};
  const built: Partial<Record<Bundle, unknown>> = {};

  const dirOf = (bundle: Bundle) => join(workspace?.dir ?? '', bundle);
  /**
   * Builds one bundle at `now` and (re)starts its preview. A rebuild needs a later `now`:
   * the live handler keeps a bundle's pages per build time, as a deployment would.
   */
  const buildBundle = async (bundle: Bundle, now = FIXED_NOW) => {
    const dir = workspace?.dir ?? '';
    const config = await writeStoreConfig(dir, 'long', bundle === 'packed', `${bundle}.config.json`);
    await build(storeBuildOptions(dir, config, { out: bundle, now }));
    await servers[bundle]?.close();
    servers[bundle] = await startPreviewServer({ dir: dirOf(bundle), port: 0 });
  };
  const baseOf = (bundle: Bundle): string => {
    const server = servers[bundle];
    if (server === undefined) throw new Error(`${bundle} is not served`);
    return server.url;
  };
  /** The page URL the sitemap publishes for `handle`, checked against llms.txt's. */
  const publishedUrl = async (bundle: Bundle, handle: string): Promise<string> => {
    const sitemap = pageUrls(await readFile(join(dirOf(bundle), 'sitemap.xml'), 'utf8'));
    const llms = pageUrls(await readFile(join(dirOf(bundle), 'llms.txt'), 'utf8'));
    expect(new Set(llms)).toEqual(new Set(sitemap));
    const base = baseOf(bundle);
    for (const url of sitemap) {
      const res = await fetch(`${base}${new URL(url).pathname}`);
      expect(res.status, url).toBe(200);
      if (matter(await res.text()).data.slug === handle) return url;
    }
    throw new Error(`${bundle}: no published page states the slug ${handle}`);
  };

  beforeAll(async () => {
    workspace = await makeWorkspace();
    const products = makeShopifyProducts(12);
    Object.values(HANDLES).forEach((handle, index) => {
      const product = products[index];
      if (product) product.handle = handle;
    });
    await writeStoreProducts(workspace.dir, products);
    for (const bundle of BUNDLES) {
      built[bundle] = await buildBundle(bundle).then(
        () => 'built',
        (error: unknown) => error,
      );
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.close()));
    await workspace?.cleanup();
  });

  it('when the pages are files or packed then the build publishes', () => {
    expect(built).toEqual({ files: 'built', packed: 'built' });
  });

  it('when the bundles are written then no file or folder name in them is over 255 bytes, and the pages are files only without the live surface', async () => {
    for (const bundle of BUNDLES) {
      const names = await namesUnder(dirOf(bundle));
      expect(names.length).toBeGreaterThan(0);
      const tooLong = names.filter((entry) => utf8Bytes(entry.name) > FILE_NAME_BYTES);
      expect(tooLong.map((entry) => entry.path)).toEqual([]);
    }
    const pages = await readdir(join(dirOf('files'), 'kb', 'products'));
    expect(pages).toHaveLength(12);
    await expect(readdir(join(dirOf('packed'), 'kb', 'products'))).rejects.toThrow();
  });

  it('when every page URL the sitemap and llms.txt publish is fetched then both bundles answer it with the product page that states its slug', async () => {
    for (const handle of Object.values(HANDLES)) {
      const files = await publishedUrl('files', handle);
      expect(await publishedUrl('packed', handle)).toBe(files);
    }
  });

  it('when <slug>.md fits in a file name then the page URL is the slug, byte for byte', async () => {
    for (const name of ['fits', 'asciiFits'] as const satisfies Case[]) {
      const url = await publishedUrl('files', HANDLES[name]);
      expect(new URL(url).pathname).toBe(`/kb/products/${encodeURIComponent(HANDLES[name])}.md`);
    }
  });

  it('when <slug>.md does not fit then the page has a name of at most 255 bytes that begins with whole letters of the slug, one of its own', async () => {
    const names = new Map<Case, string>();
    for (const name of ['longest', 'sameStart', 'marked', 'overByTwo'] as const satisfies Case[]) {
      const url = await publishedUrl('files', HANDLES[name]);
      const file = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
      expect(utf8Bytes(file)).toBeLessThanOrEqual(FILE_NAME_BYTES);
      const stem = file.replace(/\.md$/, '');
      // The slug's own first letters, cut between letters: a letter keeps its mark.
      const shared = [...stem].findIndex((char, index) => char !== HANDLES[name][index]);
      expect(shared).toBeGreaterThan(100);
      if (name === 'marked') expect(shared % 2).toBe(0);
      names.set(name, stem);
    }
    expect(new Set(names.values()).size).toBe(names.size);
  });

  it('when a content file is named after a long product page then the next build merges it into that product', async () => {
    const dir = workspace?.dir ?? '';
    const url = await publishedUrl('files', HANDLES.longest);
    const file = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
    await mkdir(join(dir, 'content', 'products'), { recursive: true });
    await writeFile(join(dir, 'content', 'products', file), '---\nbrand: Nile Cables\n---\n');
    for (const bundle of BUNDLES) {
      await buildBundle(bundle, new Date(FIXED_NOW.getTime() + 3_600_000));
      expect(await publishedUrl(bundle, HANDLES.longest)).toBe(url);
      const page = matter(await (await fetch(`${baseOf(bundle)}${new URL(url).pathname}`)).text());
      expect(page.data.brand, bundle).toBe('Nile Cables');
    }
  }, 60_000);
});
