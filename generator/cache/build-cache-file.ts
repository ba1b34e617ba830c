/**
 * The build cache's one SQLite file, and the only code that knows where it is: beside the
 * bundle, at `<parent of out>/.<out name>-cache/build-cache.sqlite`, a folder the publish
 * code never removes (it removes only `.<name>-staging-*` and `.<name>-backup`). It holds
 * a `meta` row (format, settings digest, created) and one `products` row per product
 * (slug, digest, lastmod). Reading never trusts a file it cannot vouch for: a missing,
 * unreadable or corrupt file, or one of another format or settings, reads as "rebuild",
 * with the reason, and never as an error.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { W3C_DATETIME } from '../emit/sitemap-entries.js';
import { type CachedProduct, CacheRows, isRowDigest } from './cache-rows.js';

/** Bumped whenever the tables or what a digest covers change: an older cache is then rebuilt. */
// 2: a product's digest is its JSON as built, not a canonical form (product-digest.ts).
export const CACHE_FORMAT = 2;

export const CACHE_FILE_NAME = 'build-cache.sqlite';

/** The cache folder of the bundle at `out` (absolute). */
export function buildCacheDir(out: string): string {
  return join(dirname(out), `.${basename(out)}-cache`);
}

export function buildCacheFile(out: string): string {
  return join(buildCacheDir(out), CACHE_FILE_NAME);
}

export type CacheReading =
  | { state: 'used'; products: CacheRows }
  | { state: 'created' | 'rebuilt'; reason: string };

const TABLES = ['meta', 'products'];

function readTrusted(db: Database.Database, settings: string, format: number): CacheReading {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok')
    return { state: 'rebuilt', reason: `the cache is corrupt (quick_check: ${String(check)})` };
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all()
    .map(String);
  if (tables.join(',') !== TABLES.join(',')) {
    return {
      state: 'rebuilt',
      reason: `the cache has tables ${tables.join(', ') || 'none'}, not meta, products`,
    };
  }
  const meta = db.prepare('SELECT format, settings FROM meta').all() as {
    format: unknown;
    settings: unknown;
  }[];
  const row = meta[0];
  if (meta.length !== 1 || row === undefined)
    return { state: 'rebuilt', reason: 'the cache has no meta row' };
  if (row.format !== format) {
    return {
      state: 'rebuilt',
      reason: `the cache is of format ${String(row.format)}, this build uses ${format}`,
    };
  }
  if (row.settings !== settings) {
    return { state: 'rebuilt', reason: 'the build settings or the agent-catalog version changed' };
  }
  const products = new CacheRows();
  const rows = db.prepare('SELECT slug, digest, lastmod FROM products').iterate() as Iterable<{
    slug: unknown;
    digest: unknown;
    lastmod: unknown;
  }>;
  for (const { slug, digest, lastmod } of rows) {
    const valid =
      typeof slug === 'string' &&
      typeof digest === 'string' &&
      isRowDigest(digest) &&
      typeof lastmod === 'string' &&
      W3C_DATETIME.test(lastmod);
    if (!valid) return { state: 'rebuilt', reason: 'the cache holds a product row that is not well formed' };
    products.set(slug, { digest, lastmod });
  }
  return { state: 'used', products };
}

/** Reads the cache read-only; whatever is wrong with it becomes a reason to rebuild. */
export function readBuildCache(file: string, settings: string, format = CACHE_FORMAT): CacheReading {
  if (!existsSync(file)) return { state: 'created', reason: 'there was no cache' };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return readTrusted(db, settings, format);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { state: 'rebuilt', reason: `the cache could not be read (${why})` };
  } finally {
    db?.close();
  }
}

function createTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE meta (format INTEGER NOT NULL, settings TEXT NOT NULL, created TEXT NOT NULL);
    CREATE TABLE products (slug TEXT PRIMARY KEY, digest TEXT NOT NULL, lastmod TEXT NOT NULL) WITHOUT ROWID;
  `);
}

/** SQLite's side files: a hot journal left by a killed writer would be replayed into a new file. */
async function removeSideFiles(file: string): Promise<void> {
  for (const suffix of ['-journal', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
}

/** Temporary files of builds killed while writing the cache (`createBuildCache` names them). */
async function removeStaleTemporaries(file: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  for (const entry of await readdir(dirname(file))) {
    if (entry.startsWith(prefix) && /\.tmp(-journal)?$/.test(entry))
      await rm(join(dirname(file), entry), { force: true });
  }
}

/** A new cache file being written a row at a time, as the build dates its products. */
export interface BuildCacheWriter {
  /** Writes `slug`'s row (a second one for a slug replaces the first). */
  add(slug: string, row: CachedProduct): void;
  /** Commits the rows and renames the file over the old one. */
  finish(): Promise<void>;
  /** Drops the file being written; nothing after `finish`. Safe to call twice. */
  abandon(): void;
}

/**
 * Starts a new cache file under a temporary name in the cache folder, its rows written in
 * one transaction as they come, so they are never all in memory; `finish` renames it over
 * the old one, so a kill leaves the old file or the new one.
 */
export async function startBuildCache(
  file: string,
  meta: { settings: string; created: string; format?: number },
): Promise<BuildCacheWriter> {
  await mkdir(dirname(file), { recursive: true });
  await removeStaleTemporaries(file);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const db = new Database(temporary);
  let open = true;
  const abandon = () => {
    if (open) db.close();
    open = false;
    rmSync(temporary, { force: true });
    rmSync(`${temporary}-journal`, { force: true });
  };
  try {
    createTables(db);
    db.prepare('INSERT INTO meta (format, settings, created) VALUES (?, ?, ?)').run(
      meta.format ?? CACHE_FORMAT,
      meta.settings,
      meta.created,
    );
    db.exec('BEGIN');
  } catch (error) {
    abandon();
    throw error;
  }
  const insert = db.prepare('INSERT OR REPLACE INTO products (slug, digest, lastmod) VALUES (?, ?, ?)');
  return {
    add: (slug, row) => void insert.run(slug, row.digest, row.lastmod),
    async finish() {
      try {
        db.exec('COMMIT');
        db.close();
        open = false;
        await removeSideFiles(file);
        await rename(temporary, file);
      } finally {
        abandon();
      }
    },
    abandon,
  };
}

/** A new cache file holding exactly `products` (`startBuildCache`, every row at once). */
export async function createBuildCache(
  file: string,
  meta: { settings: string; created: string; format?: number },
  products: Iterable<[string, CachedProduct]>,
): Promise<void> {
  const writer = await startBuildCache(file, meta);
  try {
    for (const [slug, row] of products) writer.add(slug, row);
  } catch (error) {
    writer.abandon();
    throw error;
  }
  await writer.finish();
}

/** Brings a trusted cache up to date in one transaction: changed rows replaced, gone ones deleted. */
export function updateBuildCache(
  file: string,
  changed: Iterable<[string, CachedProduct]>,
  removed: readonly string[],
): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const upsert = db.prepare('INSERT OR REPLACE INTO products (slug, digest, lastmod) VALUES (?, ?, ?)');
    const remove = db.prepare('DELETE FROM products WHERE slug = ?');
    db.transaction(() => {
      for (const [slug, row] of changed) upsert.run(slug, row.digest, row.lastmod);
      for (const slug of removed) remove.run(slug);
    })();
  } finally {
    db.close();
  }
}
