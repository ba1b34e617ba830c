/**
 * `check DIR` in bounded memory (issues 29 and 30): a directory's parted catalog,
 * `kb/products.json` and `feed.xml` are walked product by product (item by item) from their
 * parts, never read as one text, so a catalog past V8's longest string (a million products,
 * about 2.6 GB, and a feed of 1.5 GB) can still be checked. The sample store is built with small parts, then read by `check`'s own reader
 * with the whole-text readers of those two documents made to throw: every checker must get
 * its products from the parts. A price planted in one part, and a product that breaks the
 * schema, must still be reported, with the paths and messages of the whole document.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import { readBundleDir } from '../../../generator/check/read-dir.js';
import { checkFeed } from '../../../generator/emit/feed-check.js';
import { silentLogger } from '../../../generator/logger.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import { partsDigest } from '../../../generator/parts/part-document.js';
import { type BundleFiles, validateBundle } from '../../../generator/validate/index.js';
import { LazyBundleFiles } from '../../../generator/validate/lazy-bundle-files.js';
import { validateAgainst } from '../../../generator/validate/schemas.js';
import { type PartsManifest, partFilePath, partsManifestPath } from '../../../live/bundle-parts.js';
import { FIXED_NOW, makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';

const CATALOG = 'agent-catalog.json';
const KB_PRODUCTS = 'kb/products.json';
const FEED = 'feed.xml';
const WALKED = [CATALOG, KB_PRODUCTS, FEED];

/** The bundle as `check` reads it, but asking for the whole text of a walked document throws. */
function withoutWholeTexts(files: BundleFiles): BundleFiles {
  if (!(files instanceof LazyBundleFiles)) throw new TypeError('check reads a directory lazily');
  const readers = new Map<string, () => string>();
  const chunkReaders = new Map<string, () => Iterable<Buffer>>();
  for (const path of files.keys()) {
    readers.set(path, () => {
      if (WALKED.includes(path)) throw new Error(`${path} was read as one text`);
      return files.get(path) ?? '';
    });
    chunkReaders.set(path, () => files.chunks(path) ?? []);
  }
  return new LazyBundleFiles(readers, chunkReaders);
}

/**
 * Edits the text of the first part of `document` that `pattern` matches, and writes the
 * part and the manifest as the build would have: the damaged-part check must not fire.
 */
async function plantInPart(
  dir: string,
  document: string,
  pattern: RegExp,
  replace: string,
  from: 'first' | 'last' = 'first',
): Promise<void> {
  const manifestFile = join(dir, partsManifestPath(document));
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as PartsManifest;
  const parts = from === 'first' ? manifest.parts : [...manifest.parts].reverse();
  for (const part of parts) {
    if (part.path === undefined) continue;
    const text = await readFile(join(dir, part.path), 'utf8');
    if (!pattern.test(text)) continue;
    const bytes = Buffer.from(text.replace(pattern, replace), 'utf8');
    part.sha256 = createHash('sha256').update(bytes).digest('hex');
    part.length = bytes.length;
    part.path = partFilePath(part.sha256);
    await writeFile(join(dir, part.path), bytes);
    manifest.length = manifest.parts.reduce((sum, { length }) => sum + length, 0);
    manifest.sha256 = partsDigest(manifest.parts);
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    return;
  }
  throw new Error(`no part of ${document} matches ${pattern}`);
}

/** A parted document's whole text, joined from its parts (what the old readers read). */
function wholeText(files: BundleFiles, path: string): string {
  if (!(files instanceof LazyBundleFiles)) throw new TypeError('check reads a directory lazily');
  return Buffer.concat([...(files.chunks(path) ?? [])]).toString('utf8');
}

describe('check on a directory walks the catalog and kb/products.json from their parts', () => {
  let workspace: { dir: string; cleanup: () => Promise<void> };
  const bundleDir = () => join(workspace.dir, 'dist');

  beforeAll(async () => {
    workspace = await makeWorkspace();
    const source = join(workspace.dir, 'products.json');
    await writeFile(source, await readFile(join(REPO_ROOT, 'sample/upstream/products.json'), 'utf8'));
    await build({
      configPath: 'catalog.config.json',
      cwd: REPO_ROOT,
      out: bundleDir(),
      flags: { source },
      write: true,
      logger: silentLogger,
      now: () => FIXED_NOW,
      partSizes: partSizesAround(1024),
    });
  }, 120_000);
  afterAll(async () => {
    await workspace?.cleanup();
  });

  it('when the bundle is as built then it passes without reading any of those documents as one text', async () => {
    const files = await readBundleDir(bundleDir());
    for (const path of WALKED) expect(files.has(path), path).toBe(true);
    const manifest = JSON.parse(
      await readFile(join(bundleDir(), partsManifestPath(CATALOG)), 'utf8'),
    ) as PartsManifest;
    expect(manifest.parts.filter((part) => part.path !== undefined).length).toBeGreaterThan(2);
    expect(validateBundle(withoutWholeTexts(files))).toEqual([]);
  });

  it("when feed.xml's last part repeats its first g:id and states a malformed price then both items are named, as its whole text says", async () => {
    const whole = wholeText(await readBundleDir(bundleDir()), FEED);
    const first = /<g:id>([^<]+)<\/g:id>/.exec(whole)?.[1] ?? '';
    const count = whole.split('<item>').length - 1;
    await plantInPart(
      bundleDir(),
      FEED,
      /<g:id>[^<]+<\/g:id>(?![\s\S]*<g:id>)/,
      `<g:id>${first}</g:id>`,
      'last',
    );
    await plantInPart(
      bundleDir(),
      FEED,
      /<g:price>(\d+\.\d\d) ([A-Z]{3})<\/g:price>/,
      '<g:price>$1$2</g:price>',
    );
    const files = await readBundleDir(bundleDir());
    const said = checkFeed(withoutWholeTexts(files));
    expect(said).toEqual([
      expect.objectContaining({
        path: FEED,
        rule: 'feed',
        message: expect.stringMatching(/^item \d+ \(g:id [^)]+\): g:price is not "12\.00 USD" form$/),
      }),
      { path: FEED, rule: 'feed', message: `item ${count} (g:id ${first}): duplicate g:id` },
    ]);
    expect(said).toEqual(checkFeed(new Map([[FEED, wholeText(files, FEED)]])));
  });

  it('when feed.xml is not well-formed in a late part then it is refused with the line and words a validation of its whole text gives', async () => {
    await plantInPart(bundleDir(), FEED, /<\/g:title>(?![\s\S]*<\/g:title>)/, '</g:titlex>', 'last');
    const files = await readBundleDir(bundleDir());
    const text = wholeText(files, FEED);
    const validation = XMLValidator.validate(text);
    if (validation === true) throw new Error('the planted feed is well-formed');
    expect(validation.err.line).toBeGreaterThan(100);
    expect(checkFeed(withoutWholeTexts(files))).toEqual([
      {
        path: FEED,
        rule: 'xml',
        message: `not well-formed XML (line ${validation.err.line}): ${validation.err.msg}`,
      },
    ]);
  });

  it('when a product price is changed in one part of the catalog then the documents that disagree are named', async () => {
    await plantInPart(bundleDir(), CATALOG, /"price": "(\d+)\.(\d\d)"/, '"price": "1$1.$2"');
    const files = await readBundleDir(bundleDir());
    const problems = validateBundle(withoutWholeTexts(files));
    expect(problems).toContainEqual(expect.objectContaining({ path: KB_PRODUCTS, rule: 'consistency' }));
    expect(problems).toContainEqual(
      expect.objectContaining({ rule: 'markdown', message: expect.stringMatching(/^price is /) }),
    );
    // The same problems whether or not the whole texts can be read.
    expect(problems).toEqual(validateBundle(files));
  });

  it('when a product breaks the schema then it is named at its place in the whole catalog, as validating it whole says', async () => {
    await plantInPart(bundleDir(), CATALOG, /"currency": "([A-Z]{3})"/, '"currency": 3');
    const files = await readBundleDir(bundleDir());
    const schemaProblems = validateBundle(withoutWholeTexts(files)).filter(
      (problem) => problem.path === CATALOG && problem.rule === 'schema',
    );
    const whole: unknown = JSON.parse(
      Buffer.concat([...((files as LazyBundleFiles).chunks(CATALOG) ?? [])]).toString('utf8'),
    );
    expect(schemaProblems.length).toBeGreaterThan(0);
    expect(schemaProblems[0]?.message).toMatch(/^Catalog: \/products\/\d+\/currency: /);
    expect(schemaProblems).toEqual(validateAgainst('Catalog', whole, CATALOG));
  });
});
