/**
 * The build cache's rows in memory (cache-rows.ts): set, replaced and found by slug, walked
 * in the order they were first set, past the growth of their columns; and a cache file
 * whose row holds a digest they cannot (not a SHA-256 in hex) is rebuilt, not misread. And
 * what the dating keeps of them (dated-rows.ts): every row without rows read, else only
 * the new and changed ones, with the rows no product dated as the products gone. A new
 * cache file written row by row is there only once finished, and leaves nothing if not.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createBuildCache,
  readBuildCache,
  startBuildCache,
} from '../../../generator/cache/build-cache-file.js';
import { CacheRows } from '../../../generator/cache/cache-rows.js';
import { DatedRows } from '../../../generator/cache/dated-rows.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-catalog-rows-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the cache rows', () => {
  it('when rows are set and one replaced then each slug reads its latest row', () => {
    const rows = new CacheRows();
    rows.set('peach', { digest: sha('peach'), lastmod: '2026-11-01T00:00:00.000Z' });
    rows.set('كابل-شحن', { digest: sha('cable'), lastmod: '2026-11-02' });
    rows.set('peach', { digest: sha('peach 2'), lastmod: '2026-11-03T10:00:00+02:00' });
    expect(rows.size).toBe(2);
    expect(rows.get('peach')).toEqual({ digest: sha('peach 2'), lastmod: '2026-11-03T10:00:00+02:00' });
    expect(rows.get('كابل-شحن')).toEqual({ digest: sha('cable'), lastmod: '2026-11-02' });
    expect(rows.get('apple')).toBeUndefined();
    expect(rows.has('apple')).toBe(false);
    expect([...rows.slugs()]).toEqual(['peach', 'كابل-شحن']);
  });

  it('when thousands of rows are set then every one is walked and found', () => {
    const rows = new CacheRows();
    const now = '2026-11-27T00:00:00.000Z';
    for (let index = 0; index < 3_000; index += 1)
      rows.set(`juice-${index}`, { digest: sha(`${index}`), lastmod: now });
    expect([...rows.entries()]).toHaveLength(3_000);
    expect(rows.get('juice-2999')).toEqual({ digest: sha('2999'), lastmod: now });
    expect([...rows.entries()][1234]).toEqual(['juice-1234', { digest: sha('1234'), lastmod: now }]);
  });

  it('when given a digest that is not a SHA-256 in hex then it refuses', () => {
    expect(() => new CacheRows().set('peach', { digest: 'abc', lastmod: '2026-11-01' })).toThrow(TypeError);
  });

  it('when the cache file holds a row whose digest is not a SHA-256 then the cache is rebuilt', async () => {
    const file = join(dir, 'build-cache.sqlite');
    const good = { digest: sha('peach'), lastmod: '2026-11-01T00:00:00.000Z' };
    await createBuildCache(file, { settings: 's', created: good.lastmod }, [['peach', good]]);
    expect(readBuildCache(file, 's')).toMatchObject({ state: 'used' });
    await createBuildCache(file, { settings: 's', created: good.lastmod }, [
      ['peach', { ...good, digest: 'zz' }],
    ]);
    expect(readBuildCache(file, 's')).toEqual({
      state: 'rebuilt',
      reason: 'the cache holds a product row that is not well formed',
    });
  });
});

describe('the dated rows', () => {
  const then = '2026-11-01T00:00:00.000Z';
  const now = '2026-11-27T00:00:00.000Z';

  it('when no rows were read then every dated row is kept and nothing is called changed', () => {
    const dated = new DatedRows();
    dated.note('peach', { digest: sha('peach'), lastmod: now });
    dated.note('apple', { digest: sha('apple'), lastmod: now });
    expect([...dated.rows()].map(([slug]) => slug)).toEqual(['peach', 'apple']);
    expect(dated.changed()).toBeUndefined();
    expect(dated.removedSlugs()).toEqual([]);
  });

  it('when rows were read then only new and changed rows are kept, and the undated ones are gone', () => {
    const cached = new CacheRows();
    for (const slug of ['peach', 'apple', 'cherry']) cached.set(slug, { digest: sha(slug), lastmod: then });
    const dated = new DatedRows(cached);
    dated.note('peach', { digest: sha('peach'), lastmod: then });
    dated.note('apple', { digest: sha('apple 2'), lastmod: now });
    dated.note('lime', { digest: sha('lime'), lastmod: now });
    expect([...dated.rows()]).toEqual([
      ['apple', { digest: sha('apple 2'), lastmod: now }],
      ['lime', { digest: sha('lime'), lastmod: now }],
    ]);
    expect(dated.removedSlugs()).toEqual(['cherry']);
    expect(dated.changed()).toBe(true);
  });

  it('when every read row is dated unchanged then nothing changed; one left undated is a change', () => {
    const cached = new CacheRows();
    for (const slug of ['peach', 'apple']) cached.set(slug, { digest: sha(slug), lastmod: then });
    const all = new DatedRows(cached);
    const some = new DatedRows(cached);
    for (const slug of ['peach', 'apple']) all.note(slug, { digest: sha(slug), lastmod: then });
    some.note('apple', { digest: sha('apple'), lastmod: then });
    expect(all.changed()).toBe(false);
    expect([...all.rows()]).toEqual([]);
    expect(some.changed()).toBe(true);
    expect(some.removedSlugs()).toEqual(['peach']);
  });
});

describe('a cache file written row by row', () => {
  const lastmod = '2026-11-27T00:00:00.000Z';

  it('when finished then it holds every row; when abandoned then nothing is left', async () => {
    const file = join(dir, 'cache', 'build-cache.sqlite');
    const dropped = await startBuildCache(file, { settings: 's', created: lastmod });
    dropped.add('peach', { digest: sha('peach'), lastmod });
    dropped.abandon();
    dropped.abandon();
    expect(await readdir(join(dir, 'cache'))).toEqual([]);
    const writer = await startBuildCache(file, { settings: 's', created: lastmod });
    for (let index = 0; index < 2_000; index += 1)
      writer.add(`juice-${index}`, { digest: sha(`${index}`), lastmod });
    await writer.finish();
    expect(await readdir(join(dir, 'cache'))).toEqual(['build-cache.sqlite']);
    const reading = readBuildCache(file, 's');
    if (reading.state !== 'used') throw new Error(`the cache was not used: ${reading.reason}`);
    expect(reading.products.size).toBe(2_000);
    expect(reading.products.get('juice-1999')).toEqual({ digest: sha('1999'), lastmod });
  });
});
