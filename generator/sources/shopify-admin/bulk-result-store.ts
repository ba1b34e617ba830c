/**
 * The on-disk join of a bulk result. From API 2026-01 a bulk export's lines are flat and
 * in no promised order: a product's variants and images are lines of their own, pointing at
 * it by `__parentId`, and may come before it or long after it. Holding every line until the
 * last one is read would put the whole store in memory (1.9 GB of JSON at a million
 * products), so the lines go into a scratch SQLite file instead (better-sqlite3, already the
 * issuer's embedded store), and products come back out one at a time, each with its
 * children, in the order the export listed them.
 *
 * The file is scratch: no journal and no fsync (a crash loses nothing worth keeping, the
 * next build exports again), and it is deleted when the store is closed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeScratchFolder } from '../../scratch-folder.js';

export interface AssembledProduct {
  product: Record<string, unknown>;
  /** The product's variants and images, in the export's order. */
  children: Record<string, unknown>[];
}

export interface BulkResultStore {
  /** Adds one parsed line: a top-level object (a product) or a child naming its parent. */
  add(value: Record<string, unknown>): void;
  /** Products in the export's order, each with its children; call once every line is added. */
  products(): IterableIterator<AssembledProduct>;
  /** Closes and deletes the scratch file. */
  close(): void;
}

type Row = [id: string | null, parent: string | null, json: string];

/** Lines written per transaction: large enough that SQLite's per-commit cost disappears. */
const BATCH = 2_000;

export function openBulkResultStore(): BulkResultStore {
  const dir = makeScratchFolder('bulk');
  const db = new Database(join(dir, 'bulk.sqlite'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec('CREATE TABLE objects (seq INTEGER PRIMARY KEY, id TEXT, parent TEXT, json TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO objects (id, parent, json) VALUES (?, ?, ?)');
  let pending: Row[] = [];
  const flush = db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(row);
  });
  const flushPending = () => {
    if (pending.length > 0) flush(pending);
    pending = [];
  };
  return {
    add(value) {
      const id = typeof value.id === 'string' ? value.id : null;
      const parent = typeof value.__parentId === 'string' ? value.__parentId : null;
      pending.push([id, parent, JSON.stringify(value)]);
      if (pending.length >= BATCH) flushPending();
    },
    *products() {
      flushPending();
      // Built after the last insert: one sort at the end beats keeping the index up to date.
      db.exec('CREATE INDEX objects_parent ON objects (parent, seq)');
      // One statement (better-sqlite3 runs no other on a connection while it iterates): each
      // product's row repeated beside each of its children, in order, grouped back below.
      const rows = db
        .prepare(
          `SELECT p.seq AS seq, p.json AS product, c.json AS child FROM objects p
           LEFT JOIN objects c ON c.parent = p.id
           WHERE p.parent IS NULL ORDER BY p.seq, c.seq`,
        )
        .iterate() as IterableIterator<{ seq: number; product: string; child: string | null }>;
      let current: { seq: number; assembled: AssembledProduct } | undefined;
      for (const row of rows) {
        if (current?.seq !== row.seq) {
          if (current) yield current.assembled;
          const product = JSON.parse(row.product) as Record<string, unknown>;
          current = { seq: row.seq, assembled: { product, children: [] } };
        }
        if (row.child !== null)
          current.assembled.children.push(JSON.parse(row.child) as Record<string, unknown>);
      }
      if (current) yield current.assembled;
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
