/**
 * The rendered fragments of each product (its catalog record as JSON, its feed items, its
 * knowledge-base section…), kept in one SQLite file beside the build cache
 * (`fragments.sqlite`), so a rebuild renders only the products that changed and copies the
 * rest. A row holds one kind of fragment of one product (by slug) with the product's digest
 * (product-digest.ts) it was rendered from, and is used only for a product of that digest:
 * the same product under the same settings and version always renders the same bytes. That
 * makes the file safe to write while the build runs: a build killed half way leaves rows
 * that are right for the digest they name (SQLite commits atomically).
 *
 * The emitters ask for a kind's fragments in slug order (the plan's order), so each kind is
 * read with one forward scan of the table's own order, not one lookup per product, on a
 * reading connection of its own; new rows go through a second, writing connection. (SQLite
 * orders slugs by their UTF-8 bytes and the plan by UTF-16 units; where the two disagree, a
 * slug beyond U+FFFF, the lookup misses and the fragment is rendered again: slower, never wrong.)
 *
 * Whether a published build's gate passed a row is not a flag on the row: every opening of
 * the file is a numbered generation, each row holds the generation that wrote it, and the
 * meta row holds the last generation a gate passed (`validated_through`). `markValidated`
 * then writes one number instead of every row written since: after a cold build that is
 * every row, gigabytes at 100,000 products, which an `UPDATE` rewrote whole (and the WAL
 * wrote a second time).
 *
 * The file is trusted only under the settings digest it was written with: another digest
 * (another config, version or format), a corrupt file or an unknown layout, and it is
 * deleted and started again empty, never read.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { KnownFile } from '../publish/file-digest.js';
import { digestOf } from '../validate/digests.js';
import { SeenDigests } from '../validate/seen-digests.js';

/** Bumped whenever the table or what a kind renders changes: an older file is then emptied. */
// 7: a product's OpenAI rows are a header of lengths and the lines (openai-rows-fragment.ts), not JSON.
// 8: a row holds the generation that wrote it, the meta row the last generation a gate passed.
export const FRAGMENT_FORMAT = 8;

const PAGE_SIZE = 65_536;

/**
 * Each connection's page cache, in KiB (SQLite's own default, 2,000 KiB). better-sqlite3
 * builds SQLite with 16,000 KiB a connection, and the store holds two: at 10,000 products
 * their caches were 34 MB of the malloc heap when the build peaked, and glibc does not hand
 * that back. A cold build writes each row once and reads each kind in one forward scan, so
 * a larger cache saves no read (BENCHMARKS.md, "the 10,000-product build near 300 MB").
 */
export const FRAGMENT_CACHE_KIB = 2_000;

export const FRAGMENT_FILE_NAME = 'fragments.sqlite';

/** Rows written in one transaction: each commit is one sync, not one per row. */
const ROWS_PER_COMMIT = 5_000;

export interface FragmentStore {
  /** Whether the file was reused, or emptied and why. */
  readonly state: 'used' | 'created' | 'rebuilt';
  readonly reason?: string;
  /**
   * Why the store stopped being used during the build (SQLite found the file corrupt while
   * reading or writing it), if it did: every lookup since missed and nothing was written,
   * and `close` deleted the file, so the next build starts it again.
   */
  failure(): string | undefined;
  /** How the lookups were answered: scans opened and single-row queries (the log, and the tests). */
  readonly reads: ReadCounts;
  /**
   * The fragment of `kind` for the product `slug` at `digest`, if the file has it, and
   * whether a published build's gate passed it; fastest in slug order.
   */
  get(kind: string, slug: string, digest: string): { bytes: Buffer; validated: boolean } | undefined;
  put(kind: string, slug: string, digest: string, bytes: Buffer): void;
  /** The gate passed the bundle every row written so far is in: they need no checking again. */
  markValidated(): void;
  /**
   * Rows of `kind` are keyed by what they were made from, not by product (how a document's
   * runs were cut): when pruning, those this build neither read nor wrote are deleted.
   */
  keepTouchedOnly(kind: string): void;
  /** The bundle's files as the last build left them: each digest with the stamp of its file. */
  knownFiles(): Map<string, KnownFile>;
  /** Replaces what `knownFiles` gives the next build. */
  saveKnownFiles(files: ReadonlyMap<string, KnownFile>): void;
  /**
   * Commits and closes the file; with `prune` (a published build), first deletes the rows
   * of the products that left the catalog and of the kinds this build did not ask for.
   */
  close(prune?: { removedSlugs: readonly string[] }): void;
}

const TABLES = 'files,fragments,meta';

export interface ReadCounts {
  scans: number;
  points: number;
}

/** An open file, the last generation that opened it and the last one a gate passed. */
interface Opened {
  db: Database.Database;
  generation: number;
  validatedThrough: number;
}

type Opening = Opened | { reason: string } | undefined;

/** The file when it can be trusted under `settings`; why not otherwise; undefined when there is none. */
function openTrusted(file: string, settings: string): Opening {
  if (!existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    // The small tables are checked here; the fragments table (gigabytes at 100,000
    // products: a whole check read all of it, 120 s on a busy machine) is checked as it is
    // read, by SQLite itself, and a read that finds it corrupt turns the store off (`failure`).
    for (const table of ['meta', 'files']) {
      if (db.pragma(`quick_check(${table})`, { simple: true }) !== 'ok')
        throw new Error('the file is corrupt');
    }
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all()
      .join(',');
    if (tables !== TABLES) throw new Error(`the file has tables ${tables || 'none'}`);
    const meta = db.prepare('SELECT * FROM meta').all() as Record<string, unknown>[];
    const [row] = meta;
    if (meta.length !== 1 || row?.format !== FRAGMENT_FORMAT || row.settings !== settings) {
      throw new Error('it was written by other settings, another version or another format');
    }
    const { generation, validated_through: validatedThrough } = row;
    if (!Number.isSafeInteger(generation) || !Number.isSafeInteger(validatedThrough))
      throw new Error('its generations are not whole numbers');
    return { db, generation: generation as number, validatedThrough: validatedThrough as number };
  } catch (error) {
    db?.close();
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

function removeFile(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

function createFile(file: string, settings: string): Opened {
  removeFile(file);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // Fragments are kilobytes each and gigabytes in all: with 64 KiB pages (SQLite's largest)
  // a row rarely spills into overflow pages, and writing the cold build's rows took a third
  // of the time it took with the default 4 KiB (measured on 620 MB of rows).
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.exec(`
    CREATE TABLE meta (format INTEGER NOT NULL, settings TEXT NOT NULL,
      generation INTEGER NOT NULL, validated_through INTEGER NOT NULL);
    CREATE TABLE files (path TEXT PRIMARY KEY, ino INTEGER NOT NULL, size INTEGER NOT NULL,
      mtime REAL NOT NULL, digest TEXT NOT NULL, source TEXT) WITHOUT ROWID;
    CREATE TABLE fragments (kind TEXT NOT NULL, slug TEXT NOT NULL, digest TEXT NOT NULL,
      bytes BLOB NOT NULL, generation INTEGER NOT NULL, PRIMARY KEY (kind, slug)) WITHOUT ROWID;
  `);
  db.prepare('INSERT INTO meta (format, settings, generation, validated_through) VALUES (?, ?, 0, 0)').run(
    FRAGMENT_FORMAT,
    settings,
  );
  return { db, generation: 0, validatedThrough: 0 };
}

interface Row {
  slug: string;
  digest: string;
  bytes: Buffer;
  /** The generation that wrote the row. */
  generation: number;
}

/** Rows a lookup walks forward before it gives up walking: skipped rows are read, so keep it short. */
const MAX_STEPS = 32;
/** In-order lookups answered one by one before a scan is tried again. */
const LOOKUPS_BEFORE_SCAN = 16;
const MAX_SCAN_AFTER = 1 << 16;

/**
 * Reads one kind's rows for lookups that mostly come in slug order (the catalog, the feed,
 * the knowledge base): one scan in the table's order, walked forward. A lookup behind the
 * scan, for another kind, or more than a few rows ahead (the page shards ask by hash) is
 * answered by its own point query instead, and the scan is dropped until lookups run in
 * order again: walking reads every row it passes, and opening a scan costs more than a
 * point query.
 */
function forwardReader(db: Database.Database, reads: ReadCounts) {
  const scan = db.prepare(
    'SELECT slug, digest, bytes, generation FROM fragments WHERE kind = ? AND slug >= ? ORDER BY slug',
  );
  const point = db.prepare(
    'SELECT slug, digest, bytes, generation FROM fragments WHERE kind = ? AND slug = ?',
  );
  let kind: string | undefined;
  let rows: IterableIterator<unknown> | undefined;
  let current: Row | undefined;
  let last = '';
  let inOrder = 0;
  // In-order lookups before a scan is opened; doubled each time a scan was wasted on lookups
  // too far apart to walk (the shards' lookups: in order, but one in hundreds of rows).
  let scanAfter = LOOKUPS_BEFORE_SCAN;
  const advance = (): Row | undefined => {
    const next = rows?.next();
    return next === undefined || next.done === true ? undefined : (next.value as Row);
  };
  const stop = () => {
    rows?.return?.();
    rows = undefined;
    current = undefined;
  };
  const walk = (slug: string): Row | undefined | false => {
    for (let steps = 0; current !== undefined && current.slug < slug && steps < MAX_STEPS; steps += 1) {
      current = advance();
    }
    // Reached (or passed) the slug, or the kind has no rows left: the walk answered.
    if (current === undefined || current.slug >= slug) return current?.slug === slug ? current : undefined;
    return false;
  };
  return {
    stop,
    get(wanted: string, slug: string): Row | undefined {
      if (wanted !== kind) scanAfter = LOOKUPS_BEFORE_SCAN;
      const ordered = wanted === kind && slug >= last;
      inOrder = ordered ? inOrder + 1 : 0;
      kind = wanted;
      last = slug;
      if (ordered && rows !== undefined) {
        const walked = walk(slug);
        if (walked !== false) return walked;
        // Far ahead: the lookups are in order but sparse, so wait longer before the next scan.
        inOrder = 0;
        scanAfter = Math.min(scanAfter * 2, MAX_SCAN_AFTER);
      }
      if (ordered && rows === undefined && inOrder >= scanAfter) {
        reads.scans += 1;
        rows = scan.iterate(wanted, slug);
        current = advance();
        return current?.slug === slug ? current : undefined;
      }
      // Out of order, far ahead, or not yet enough in order: one point query, and no scan
      // open meanwhile (walking it later would read every row in between).
      stop();
      reads.points += 1;
      return point.get(wanted, slug) as Row | undefined;
    },
  };
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
  const opened = trusted !== undefined && 'db' in trusted ? trusted : createFile(file, settings);
  const writer = opened.db;
  // The file is a cache: a crash may lose the last commits (never corrupt the file), which
  // the next build renders again. WAL lets the reading connection scan while rows are written.
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma(`cache_size = -${FRAGMENT_CACHE_KIB}`);
  // This build's rows are written under a generation of their own; a gate that passes
  // vouches for every row written up to it (and a later build's rows are newer).
  let generation = opened.generation + 1;
  let validatedThrough = opened.validatedThrough;
  const setGenerations = writer.prepare('UPDATE meta SET generation = ?, validated_through = ?');
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  reader.pragma(`cache_size = -${FRAGMENT_CACHE_KIB}`);
  const reads: ReadCounts = { scans: 0, points: 0 };
  const rows = forwardReader(reader, reads);
  const insert = writer.prepare(
    'INSERT OR REPLACE INTO fragments (kind, slug, digest, bytes, generation) VALUES (?, ?, ?, ?, ?)',
  );
  const kinds = new Set<string>();
  // A file started empty by this build holds no row of a kind this build has not written:
  // a cold build asks for every fragment once before it renders it (tens of thousands of
  // queries at 10,000 products), and each such query would find nothing.
  const startedEmpty = !(trusted !== undefined && 'db' in trusted);
  const written = new Set<string>();
  // The slugs met of each kind that keeps only those, as 8-byte digests: a million strings
  // at 1,000,000 products otherwise, held from the first fragment until the build ends.
  const touched = new Map<string, SeenDigests>();
  const touch = (kind: string, slug: string) => touched.get(kind)?.add(digestOf(slug));
  let pending = 0;
  let failure: string | undefined;
  /**
   * Runs one use of the file; when SQLite fails it (a corrupt page, a full disk), the store
   * is off from then on: the build renders what it would have copied, which is slower and
   * never wrong, and the file is deleted at `close`.
   */
  const guarded = <T>(what: string, use: () => T, otherwise: T): T => {
    if (failure !== undefined) return otherwise;
    try {
      return use();
    } catch (error) {
      if (!(error instanceof Database.SqliteError)) throw error;
      failure = `${what} ${file}: ${error.message}`;
      return otherwise;
    }
  };
  // The next build that opens the file is a generation after this one, even if this one fails.
  guarded('writing', () => setGenerations.run(generation, validatedThrough), undefined);
  const commit = () => {
    if (writer.inTransaction) writer.exec('COMMIT');
    pending = 0;
  };
  return {
    ...(trusted === undefined
      ? { state: 'created' as const }
      : 'db' in trusted
        ? { state: 'used' as const }
        : { state: 'rebuilt' as const, reason: trusted.reason }),
    reads,
    failure: () => failure,
    get(kind, slug, digest) {
      kinds.add(kind);
      touch(kind, slug);
      if (startedEmpty && !written.has(kind)) return undefined;
      const row = guarded('reading', () => rows.get(kind, slug), undefined);
      if (row === undefined || row.digest !== digest) return undefined;
      return { bytes: row.bytes, validated: row.generation <= validatedThrough };
    },
    put(kind, slug, digest, bytes) {
      kinds.add(kind);
      touch(kind, slug);
      guarded(
        'writing',
        () => {
          if (!writer.inTransaction) writer.exec('BEGIN');
          insert.run(kind, slug, digest, bytes, generation);
          written.add(kind);
          pending += 1;
          if (pending >= ROWS_PER_COMMIT) commit();
        },
        undefined,
      );
    },
    knownFiles() {
      return guarded('reading', readKnownFiles, new Map<string, KnownFile>());
    },
    saveKnownFiles(files) {
      guarded('writing', () => saveKnownFiles(files), undefined);
    },
    markValidated() {
      guarded(
        'writing',
        () => {
          commit();
          // Rows written after this (by this build still) are not in what the gate passed.
          setGenerations.run(generation + 1, generation);
          validatedThrough = generation;
          generation += 1;
        },
        undefined,
      );
    },
    keepTouchedOnly(kind) {
      if (!touched.has(kind)) touched.set(kind, new SeenDigests());
    },
    close(prune) {
      try {
        rows.stop();
        reader.close();
        if (failure === undefined) {
          guarded('writing', commit, undefined);
          if (prune !== undefined)
            guarded('pruning', () => removeRows(writer, prune.removedSlugs, kinds, touched), undefined);
        }
      } finally {
        writer.close();
        if (failure !== undefined) removeFile(file);
      }
    },
  };

  function readKnownFiles(): Map<string, KnownFile> {
    const known = new Map<string, KnownFile>();
    const rows = writer
      .prepare('SELECT path, ino, size, mtime, digest, source FROM files')
      .iterate() as Iterable<{
      path: unknown;
      ino: unknown;
      size: unknown;
      mtime: unknown;
      digest: unknown;
      source: unknown;
    }>;
    for (const { path, ino, size, mtime, digest, source } of rows) {
      // A row that is not well formed is not trusted: that file is read again.
      if (typeof path !== 'string' || typeof digest !== 'string') continue;
      if (typeof ino !== 'number' || typeof size !== 'number' || typeof mtime !== 'number') continue;
      known.set(path, {
        ino,
        size,
        mtimeMs: mtime,
        digest,
        ...(typeof source === 'string' ? { source } : {}),
      });
    }
    return known;
  }

  function saveKnownFiles(files: ReadonlyMap<string, KnownFile>): void {
    commit();
    const insert = writer.prepare(
      'INSERT INTO files (path, ino, size, mtime, digest, source) VALUES (?, ?, ?, ?, ?, ?)',
    );
    writer.transaction(() => {
      writer.exec('DELETE FROM files');
      for (const [path, file] of files) {
        insert.run(path, file.ino, file.size, file.mtimeMs, file.digest, file.source ?? null);
      }
    })();
  }
}

/**
 * The kinds the table holds, one seek each: `SELECT DISTINCT kind` read the whole table
 * (gigabytes at 100,000 products, 1.6 s of a one-change rebuild) to find a few dozen.
 */
function storedKinds(db: Database.Database): string[] {
  const next = db.prepare('SELECT kind FROM fragments WHERE kind > ? ORDER BY kind LIMIT 1').pluck();
  const kinds: string[] = [];
  for (
    let kind = next.get('') as string | undefined;
    kind !== undefined;
    kind = next.get(kind) as string | undefined
  )
    kinds.push(kind);
  return kinds;
}

/** Deletes the rows of products no longer in the catalog and of kinds no longer rendered. */
function removeRows(
  db: Database.Database,
  slugs: readonly string[],
  kinds: ReadonlySet<string>,
  touchedOnly: ReadonlyMap<string, SeenDigests>,
): void {
  const stored = storedKinds(db);
  const removeKind = db.prepare('DELETE FROM fragments WHERE kind = ?');
  const removeSlug = db.prepare('DELETE FROM fragments WHERE kind = ? AND slug = ?');
  const slugsOf = db.prepare('SELECT slug FROM fragments WHERE kind = ?').pluck();
  db.transaction(() => {
    for (const kind of stored) {
      const keep = touchedOnly.get(kind);
      if (!kinds.has(kind)) removeKind.run(kind);
      else if (keep !== undefined) {
        // Collected first: deleting while the same table is being read is not allowed. Only
        // the stale slugs are kept (a rebuild has few), not every slug of the kind. A stale
        // slug sharing a digest with a met one keeps its row: an unused row, never a lost one.
        const stale: string[] = [];
        for (const slug of slugsOf.iterate(kind) as Iterable<string>)
          if (!keep.has(digestOf(slug))) stale.push(slug);
        for (const slug of stale) removeSlug.run(kind, slug);
      } else for (const slug of slugs) removeSlug.run(kind, slug);
    }
  })();
}
