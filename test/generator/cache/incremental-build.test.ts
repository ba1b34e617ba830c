import { existsSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildOptions, build } from '../../../generator/build.js';
import { FRAGMENT_FILE_NAME } from '../../../generator/cache/fragment-store.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { validateChanged } from '../../../generator/incremental-gate.js';
import { createMemoryLogger } from '../../../generator/logger.js';
import { makeSamplePlan, makeSamplePlanWithFirstProduct } from '../../helpers/sample-plan.js';
import {
  FIXED_NOW,
  hashTree,
  makeWorkspace,
  setUpstreamPrice,
  writingBuildOptions,
} from '../pipeline/helpers.js';

const AN_HOUR_LATER = new Date(FIXED_NOW.getTime() + 3_600_000);

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

function options(out: string, now: Date): BuildOptions {
  return writingBuildOptions(dir, now, out);
}

async function setPrice(handle: string, price: string): Promise<void> {
  await setUpstreamPrice(dir, handle, price);
}

function fragmentFile(out = 'dist'): string {
  return join(dir, `.${out}-cache`, FRAGMENT_FILE_NAME);
}

function withFragments<T>(run: (db: Database.Database) => T, out = 'dist'): T {
  const db = new Database(fragmentFile(out), { fileMustExist: true });
  try {
    return run(db);
  } finally {
    db.close();
  }
}

async function firstHandle(): Promise<string> {
  const data = JSON.parse(await readFile(join(dir, 'upstream/products.json'), 'utf8')) as {
    products: { handle: string }[];
  };
  const handle = data.products[0]?.handle;
  if (handle === undefined) throw new Error('the sample has no product');
  return handle;
}

describe('a rebuild from the fragments the last build kept', () => {
  it('when one price changed then the bundle has the bytes a cold build of the same store writes', async () => {
    await build(options('dist', FIXED_NOW));
    await setPrice(await firstHandle(), '99.00');
    const rebuilt = await build(options('dist', AN_HOUR_LATER));
    const cold = await build(options('cold', AN_HOUR_LATER));
    expect(rebuilt.cache.state).toBe('used');
    expect(cold.cache.state).toBe('created');
    expect(await hashTree(join(dir, 'dist'))).toEqual(await hashTree(join(dir, 'cold')));
  });

  it('when a product did not change then its fragments are copied from the file, not rendered again', async () => {
    await build(options('dist', FIXED_NOW));
    const handle = await firstHandle();
    // Mark one unchanged product's record fragment: a copy carries the mark, a rendering would not.
    const slugs = withFragments((db) =>
      db.prepare("SELECT slug FROM fragments WHERE kind = 'record-json' ORDER BY slug").pluck().all(),
    ) as string[];
    const marked = slugs.find((slug) => slug !== handle);
    if (marked === undefined) throw new Error('the sample has one product only');
    withFragments((db) =>
      db
        .prepare("UPDATE fragments SET bytes = ? WHERE kind = 'record-json' AND slug = ?")
        .run(Buffer.from('    {\n      "marked": "COPIED"\n    }'), marked),
    );
    await setPrice(handle, '98.00');
    await build(options('dist', AN_HOUR_LATER));
    const catalog = JSON.parse(await readFile(join(dir, 'dist/agent-catalog.json'), 'utf8')) as {
      products: Record<string, unknown>[];
    };
    expect(catalog.products).toContainEqual({ marked: 'COPIED' });
  });

  it('when the build published then every fragment it wrote is marked as passed by the gate', async () => {
    await build(options('dist', FIXED_NOW));
    // A row is passed when the generation that wrote it is at most the last one a gate passed.
    const counts = withFragments((db) =>
      db
        .prepare(
          'SELECT generation <= (SELECT validated_through FROM meta) AS validated, COUNT(*) AS n FROM fragments GROUP BY 1',
        )
        .all(),
    );
    expect(counts).toEqual([{ validated: 1, n: expect.any(Number) }]);
  });

  it('when a product leaves the store then its fragments leave the file', async () => {
    await build(options('dist', FIXED_NOW));
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { products: { handle: string }[] };
    const gone = data.products.pop()?.handle;
    await writeFile(file, JSON.stringify(data));
    await build({ ...options('dist', AN_HOUR_LATER), allowShrink: true });
    const left = withFragments((db) =>
      db.prepare('SELECT COUNT(*) FROM fragments WHERE slug = ?').pluck().get(gone),
    );
    expect(left).toBe(0);
  });

  it('when the fragment file holds garbage then the cache is rebuilt, says so, and the bundle is still right', async () => {
    await build(options('dist', FIXED_NOW));
    await writeFile(fragmentFile(), 'not a database');
    await setPrice(await firstHandle(), '97.00');
    const rebuilt = await build(options('dist', AN_HOUR_LATER));
    await build(options('cold', AN_HOUR_LATER));
    expect(rebuilt.cache.state).toBe('rebuilt');
    expect(rebuilt.cache.reason).toMatch(/fragment file/);
    expect(await hashTree(join(dir, 'dist'))).toEqual(await hashTree(join(dir, 'cold')));
  });

  it('when the fragments table is corrupt past the first check then the build renders what it cannot read, warns, and starts the file again', async () => {
    await build(options('dist', FIXED_NOW));
    // Garbage over every page of the fragments table, none over the small tables the open checks.
    const pages = withFragments(
      (db) => db.prepare("SELECT pageno FROM dbstat WHERE name = 'fragments'").pluck().all() as number[],
    );
    const pageSize = withFragments((db) => db.pragma('page_size', { simple: true }) as number);
    const file = await open(fragmentFile(), 'r+');
    try {
      for (const page of pages)
        await file.write(Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
    } finally {
      await file.close();
    }
    await setPrice(await firstHandle(), '96.00');
    const logger = createMemoryLogger();
    const rebuilt = await build({ ...options('dist', AN_HOUR_LATER), logger });
    await build(options('cold', AN_HOUR_LATER));
    expect(rebuilt.cache.state).toBe('used');
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message: expect.stringMatching(/fragment file failed while reading .*malformed/),
    });
    expect(await hashTree(join(dir, 'dist'))).toEqual(await hashTree(join(dir, 'cold')));
    expect(existsSync(fragmentFile())).toBe(false);
  });

  it('when nothing is written (write: false) then no fragment file is made', async () => {
    await build({ ...options('dist', FIXED_NOW), write: false });
    await expect(readFile(fragmentFile())).rejects.toThrow(/ENOENT/);
  });
});

describe('the last bundle as the cache knows it', () => {
  it('when a build published then the cache holds every bundle file with its digest', async () => {
    await build(options('dist', FIXED_NOW));
    const rows = withFragments((db) => db.prepare('SELECT path, digest FROM files').all()) as {
      path: string;
      digest: string;
    }[];
    const tree = await hashTree(join(dir, 'dist'));
    expect(Object.fromEntries(rows.map((row) => [row.path, row.digest]))).toEqual(tree);
  });

  it('when a bundle file was edited by hand then the next build notices and writes it anew', async () => {
    await build(options('dist', FIXED_NOW));
    const before = await hashTree(join(dir, 'dist'));
    const robots = join(dir, 'dist/robots.txt');
    await writeFile(robots, `${await readFile(robots, 'utf8')}# edited\n`);
    const again = await build(options('dist', AN_HOUR_LATER));
    expect(again.files.written).toBeGreaterThan(0);
    expect((await hashTree(join(dir, 'dist')))['robots.txt']).toBe(before['robots.txt']);
  });
});

describe('the gate of a rebuild', () => {
  it('when a changed product renders invalid documents then the gate names it', () => {
    const plan = makeSamplePlanWithFirstProduct((product) => ({
      ...product,
      record: { ...product.record, availability: 'sold' as never },
    }));
    const others = new Set([...plan.products].slice(1).map((product) => product.record.slug));
    const problems = validateChanged(plan, emitBundle(plan), others);
    expect(problems.some((problem) => /availability/.test(problem.message))).toBe(true);
  });

  it('when every product is unchanged and valid then the gate passes', () => {
    const plan = makeSamplePlan();
    const all = new Set([...plan.products].map((product) => product.record.slug));
    expect(validateChanged(plan, emitBundle(plan), all)).toEqual([]);
  });

  it('when a document around the products is broken then the gate still finds it', () => {
    const plan = makeSamplePlan();
    const all = new Set([...plan.products].map((product) => product.record.slug));
    const artifacts = emitBundle(plan).map((artifact) =>
      artifact.path === 'robots.txt' ? { ...artifact, body: 'Disallow /\n' } : artifact,
    );
    const problems = validateChanged(plan, artifacts, all);
    expect(problems.map((problem) => problem.path)).toContain('robots.txt');
  });

  it('when llms.txt is broken then the gate finds it', () => {
    const plan = makeSamplePlan();
    const all = new Set([...plan.products].map((product) => product.record.slug));
    const artifacts = emitBundle(plan).map((artifact) =>
      artifact.path === 'llms.txt' ? { ...artifact, body: 'no title\n- just words\n' } : artifact,
    );
    expect(validateChanged(plan, artifacts, all).map((problem) => problem.path)).toContain('llms.txt');
  });

  it('when a JSON file changed then its syntax is checked, and when it is the last bundle file it is not parsed again', () => {
    const plan = makeSamplePlan();
    const all = new Set([...plan.products].map((product) => product.record.slug));
    const artifacts = emitBundle(plan).map((artifact) =>
      artifact.path === '.well-known/api-catalog.json' ? { ...artifact, body: '{"broken": ' } : artifact,
    );
    const changed = validateChanged(plan, artifacts, all);
    expect(
      changed.some(
        (problem) => problem.path === '.well-known/api-catalog.json' && /JSON/.test(problem.message),
      ),
    ).toBe(true);
    const json = artifacts
      .filter((artifact) => artifact.path.endsWith('.json'))
      .map((artifact) => artifact.path);
    const kept = validateChanged(plan, artifacts, all, new Set(json));
    expect(kept.filter((problem) => problem.rule === 'json')).toEqual([]);
  });
});
