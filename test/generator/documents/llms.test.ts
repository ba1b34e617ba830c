import { describe, expect, it } from 'vitest';
import { spillArtifactInChunks } from '../../../generator/compact-artifact.js';
import {
  checkLlms,
  emitLlms,
  LLMS_FILE,
  LLMS_FULL_FILE,
  readLlmsLinks,
} from '../../../generator/emit/llms.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import { makeSamplePlan, makeSamplePlanWithFirstProduct } from '../../helpers/sample-plan.js';

function bodies(plan = makeSamplePlan()) {
  const artifacts = emitLlms(plan);
  const llms = artifacts.find((a) => a.path === LLMS_FILE);
  const full = artifacts.find((a) => a.path === LLMS_FULL_FILE);
  if (llms === undefined || full === undefined) throw new Error('missing llms artifacts');
  return { artifacts, llms: llms.body, full: full.body, mediaType: llms.mediaType };
}

/** An independent reading of the llmstxt.org structure: H1, blockquote, then H2 sections. */
function outline(text: string) {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const h2 = lines.filter((line) => line.startsWith('## ')).map((line) => line.slice(3));
  return { first: lines[0], second: lines[1], h1Count: lines.filter((l) => /^# /.test(l)).length, h2 };
}

describe('emitLlms', () => {
  it('opens with the merchant as H1 and a blockquote summary, then H2 link sections ending in Optional', () => {
    const { llms, mediaType } = bodies();
    expect(mediaType).toBe('text/plain; charset=utf-8');
    const { first, second, h1Count, h2 } = outline(llms);
    expect(first).toBe('# Pomona Press Juice Co.');
    expect(second?.startsWith('> ')).toBe(true);
    expect(h1Count).toBe(1);
    expect(h2.at(-1)).toBe('Optional');
    expect(h2).toContain('Catalog API');
  });

  it('links the catalog under base_url and the OpenAPI, docs, knowledge base, feed and sitemap', () => {
    const urls = readLlmsLinks(bodies().llms).map((l) => l.url);
    for (const url of [
      'https://shop.pomona.example/agent-catalog',
      'https://shop.pomona.example/api/openapi.json',
      'https://shop.pomona.example/api/',
      'https://shop.pomona.example/kb/pomona-knowledge-base.md',
      'https://shop.pomona.example/feed.xml',
      'https://shop.pomona.example/sitemap.xml',
      'https://shop.pomona.example/llms-full.txt',
    ]) {
      expect(urls).toContain(url);
    }
  });

  it('lists every product with its URL, price and availability', () => {
    const plan = makeSamplePlan();
    const products = readLlmsLinks(bodies(plan).llms).filter((l) => l.section === 'Products');
    expect(products.map((l) => l.url)).toEqual([...recordsOf(plan.products)].map((p) => p.url));
    expect(products[0]?.notes).toContain('42.00 USD');
    expect(products[2]?.notes).toContain('coming_soon');
  });

  it('states the usage rules: attribution, the request rate, no training, no automated purchases', () => {
    const { llms } = bodies();
    expect(llms).toMatch(/attribution/i);
    expect(llms).toContain('under 60');
    expect(llms).toMatch(/must not be used to train/);
    expect(llms).toMatch(/do not automate purchases/i);
  });

  it('inlines the knowledge base in llms-full.txt', () => {
    const { full } = bodies();
    expect(outline(full).first).toBe('# Pomona Press Juice Co.');
    expect(full).toContain('### Green Glow');
    expect(full).toContain('- Ingredients: kale; cucumber; green apple; lemon');
    expect(full).toContain('### How we press & bottle');
  });

  it('keeps a product name with brackets, newlines and a leading # inside one link item', () => {
    const name = '# [Best](https://evil.example)\n## juice';
    const plan = makeSamplePlanWithFirstProduct((p) => ({ ...p, record: { ...p.record, name } }));
    const { llms } = bodies(plan);
    const product = readLlmsLinks(llms).find((l) => l.url === [...recordsOf(plan.products)][0]?.url);
    expect(product?.title).toBe('# [Best](https://evil.example) ## juice');
    expect(outline(llms).h2).not.toContain('juice');
    expect(checkLlms(bundleFilesOf(emitLlms(plan)))).toEqual([]);
  });

  it('refuses a product URL with spaces, naming the product', () => {
    const plan = makeSamplePlanWithFirstProduct((p) => ({
      ...p,
      record: { ...p.record, url: 'https://shop.pomona.example/a b' },
    }));
    expect(() => emitLlms(plan)).toThrow(expect.objectContaining({ code: 'PRODUCT_INVALID' }));
  });

  it('passes its own checker', () => {
    expect(checkLlms(bundleFilesOf(bodies().artifacts))).toEqual([]);
  });
});

describe('checkLlms', () => {
  const files = () => new Map(bundleFilesOf(bodies().artifacts));

  it('refuses a file without the H1', () => {
    const bundle = files();
    bundle.set(LLMS_FILE, (bundle.get(LLMS_FILE) ?? '').replace(/^# .*\n/, ''));
    expect(checkLlms(bundle).length).toBeGreaterThan(0);
  });

  it('refuses a section item that is not a link', () => {
    const bundle = files();
    bundle.set(LLMS_FILE, `${bundle.get(LLMS_FILE) ?? ''}- just words\n`);
    expect(checkLlms(bundle)).toHaveLength(1);
  });

  it('refuses a relative link and a second H1', () => {
    const bundle = files();
    bundle.set(LLMS_FILE, `${bundle.get(LLMS_FILE) ?? ''}- [x](/relative)\n# Again\n`);
    expect(checkLlms(bundle)).toHaveLength(2);
  });

  it('refuses a missing llms-full.txt', () => {
    const bundle = files();
    bundle.delete(LLMS_FULL_FILE);
    expect(checkLlms(bundle).map((p) => p.path)).toEqual([LLMS_FULL_FILE]);
  });

  /** The bundle with llms-full.txt read from these chunks, and how many of them were read. */
  function chunkedFull(chunks: readonly string[]) {
    let read = 0;
    const full = spillArtifactInChunks(
      { path: LLMS_FULL_FILE, mediaType: 'text/plain; charset=utf-8', body: '' },
      function* () {
        for (const chunk of chunks) {
          read += 1;
          yield Buffer.from(chunk, 'utf8');
        }
      },
    );
    const llms = bodies().artifacts.filter((artifact) => artifact.path === LLMS_FILE);
    return { bundle: bundleFilesOf([...llms, full]), read: () => read };
  }

  it('reads a chunked llms-full.txt only as far as its first line', () => {
    const { bundle, read } = chunkedFull(['\n# Pomona\n', '## Products\n', '- [A](https://a.example)\n']);
    expect(checkLlms(bundle)).toEqual([]);
    expect(read()).toBe(1);
  });

  it('finds the H1 of a chunked llms-full.txt across chunks, and refuses a start that is not one', () => {
    expect(checkLlms(chunkedFull(['  \n', '#', ' Pomona\n', 'rest']).bundle)).toEqual([]);
    const refused = checkLlms(chunkedFull(['\n', '#', 'Pomona\n', 'rest']).bundle);
    expect(refused.map((problem) => [problem.path, problem.message])).toEqual([
      [LLMS_FULL_FILE, 'the first line is not an H1 title'],
    ]);
    expect(checkLlms(chunkedFull(['\n\n', '']).bundle)).toHaveLength(1);
  });
});
