/**
 * The rendered fragments of each product (its catalog record as JSON, its feed items, its
 * knowledge-base section…), kept in one SQLite file beside the build cache
 * (`fragments.sqlite`), so a rebuild renders only the products that changed and copies the
 * rest. A fragment is addressed by its kind and the product's digest (product-digest.ts):
 * the same product under the same settings and version always renders the same bytes, so
 * a row can never be stale, only unused. That makes the file safe to write while the build
 * runs: a build killed half way leaves rows that are right but unused (SQLite commits
 * atomically), which the next published build prunes.
 *
 * The file is trusted only under the settings digest it was written with: another digest
 * (another config, version or format), a corrupt file or an unknown layout, and it is
 * deleted and started again empty, never read.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';

/** Bumped whenever the table or what a kind renders changes: an older file is then emptied. */
export const FRAGMENT_FORMAT = 1;

export const FRAGMENT_FILE_NAME = 'fragments.sqlite';

/** Rows written in one transaction: each commit is one fsync, not one per row. */
const ROWS_PER_COMMIT = 5_000;

export interface FragmentStore {
  /** Whether the file was reused, or emptied and why. */
  readonly state: 'used' | 'created' | 'rebuilt';
  readonly reason?: string;
  get(kind: string, digest: string): Buffer | undefined;
  put(kind: string, digest: string, bytes: Buffer): void;
  /** Deletes every row whose digest is not in `keep`, commits and closes the file. */
  close(keep?: ReadonlySet<string>): void;
}

const TABLES = 'fragments,meta';

type Opening = { db: Database.Database } | { reason: string } | undefined;

/** The file when it can be trusted under `settings`; why not otherwise; undefined when there is none. */
function openTrusted(file: string, settings: string): Opening {
  if (!existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    if (db.pragma('quick_check', { simple: true }) !== 'ok') throw new Error('the file is corrupt');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all()
      .join(',');
    if (tables !== TABLES) throw new Error(`the file has tables ${tables || 'none'}`);
    const meta = db.prepare('SELECT format, settings FROM meta').all() as {
      format: unknown;
      settings: unknown;
    }[];
    if (meta.length !== 1 || meta[0]?.format !== FRAGMENT_FORMAT || meta[0]?.settings !== settings) {
      throw new Error('it was written by other settings, another version or another format');
    }
    return { db };
  } catch (error) {
    db?.close();
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

function removeFile(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

function createFile(file: string, settings: string): Database.Database {
  removeFile(file);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(`
    CREATE TABLE meta (format INTEGER NOT NULL, settings TEXT NOT NULL);
    CREATE TABLE fragments (kind TEXT NOT NULL, digest TEXT NOT NULL, bytes BLOB NOT NULL,
      PRIMARY KEY (kind, digest)) WITHOUT ROWID;
  `);
  db.prepare('INSERT INTO meta (format, settings) VALUES (?, ?)').run(FRAGMENT_FORMAT, settings);
  return db;
}

/**
 * Opens (or starts again) the fragment file in the cache folder `dir`, trusted under
 * `settings`; `fresh` starts it again whatever it holds (the rest of the cache was not trusted).
 */
export function openFragmentStore(dir: string, settings: string, fresh = false): FragmentStore {
  const file = join(dir, FRAGMENT_FILE_NAME);
  const trusted: Opening =
    fresh && existsSync(file)
      ? { reason: 'the rest of the build cache was not trusted' }
      : openTrusted(file, settings);
  const db = trusted !== undefined && 'db' in trusted ? trusted.db : createFile(file, settings);
  // The file is a cache: a crash may lose the last commits (never corrupt the file), which
  // the next build renders again. WAL keeps readers and the one writer out of each other's way.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const select = db.prepare('SELECT bytes FROM fragments WHERE kind = ? AND digest = ?').pluck();
  const insert = db.prepare('INSERT OR REPLACE INTO fragments (kind, digest, bytes) VALUES (?, ?, ?)');
  let pending = 0;
  const commit = () => {
    if (db.inTransaction) db.exec('COMMIT');
    pending = 0;
  };
  return {
    ...(trusted === undefined
      ? { state: 'created' as const }
      : 'db' in trusted
        ? { state: 'used' as const }
        : { state: 'rebuilt' as const, reason: trusted.reason }),
    get(kind, digest) {
      const bytes = select.get(kind, digest);
      return Buffer.isBuffer(bytes) ? bytes : undefined;
    },
    put(kind, digest, bytes) {
      if (!db.inTransaction) db.exec('BEGIN');
      insert.run(kind, digest, bytes);
      pending += 1;
      if (pending >= ROWS_PER_COMMIT) commit();
    },
    close(keep) {
      try {
        commit();
        if (keep !== undefined) pruneExcept(db, keep);
      } finally {
        db.close();
      }
    },
  };
}

/** Deletes the rows of products no longer in the catalog (or no longer at that digest). */
function pruneExcept(db: Database.Database, keep: ReadonlySet<string>): void {
  const digests = db.prepare('SELECT DISTINCT digest FROM fragments').pluck().iterate() as Iterable<string>;
  const gone = [...digests].filter((digest) => !keep.has(digest));
  if (gone.length === 0) return;
  const remove = db.prepare('DELETE FROM fragments WHERE digest = ?');
  db.transaction(() => {
    for (const digest of gone) remove.run(digest);
  })();
}
