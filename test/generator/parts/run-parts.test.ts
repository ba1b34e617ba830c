/**
 * A document of products cut along runs of products: a rebuild in which one product changed
 * cuts again only the document's head and the run that product is in; every other part is
 * taken from the cache by length and SHA-256, and its products' bytes are never read.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PieceSequence } from '../../../generator/document-pieces.js';
import { cutParts } from '../../../generator/parts/cut-parts.js';
import { partDocument, partsDigest } from '../../../generator/parts/part-document.js';
import {
  cutRunParts,
  groupRuns,
  type Run,
  type RunCache,
  runSlugs,
} from '../../../generator/parts/run-parts.js';
import type { RunPart } from '../../../generator/plan.js';
import { bufferElements } from '../../helpers/buffer-elements.js';

const SIZES = { min: 256, avg: 1024, max: 2048 };

/** A cache in a map, as the fragment store keeps it between builds. */
function mapCache(): RunCache & { runs: Map<string, readonly RunPart[]> } {
  const runs = new Map<string, readonly RunPart[]>();
  const lengths = new Map<string, number>();
  return {
    runs,
    runParts: (key) => runs.get(key),
    keepRunParts: (key, parts) => runs.set(key, parts),
    runLength: (document) => lengths.get(document),
    keepRunLength: (document, value) => lengths.set(document, value),
  };
}

interface Product {
  slug: string;
  price: number;
}

const products: Product[] = Array.from({ length: 400 }, (_, index) => ({
  slug: `juice-${String(index).padStart(4, '0')}`,
  price: 100 + index,
}));

/** The document's pieces: a head naming the build, one element a product (keyed by its content), a tail; each read counted. */
function piecesOf(items: readonly Product[], generated: string, reads: Set<string>): PieceSequence {
  const elements = {
    length: items.length,
    slug: (index: number) => productOf(items, index).slug,
    key: (index: number) =>
      `record\u0000${productOf(items, index).slug}\u0000${productOf(items, index).price}`,
    read: (index: number) => {
      const product = productOf(items, index);
      reads.add(product.slug);
      return Buffer.from(
        `  {"slug":"${product.slug}","price":${product.price},"about":"${'ü'.repeat(20)}"}`,
        'utf8',
      );
    },
  };
  return new PieceSequence([
    Buffer.from(`{"generated":"${generated}","products":[\n`),
    { elements, between: Buffer.from(',\n') },
    Buffer.from('\n]}\n'),
  ]);
}

function productOf(items: readonly Product[], index: number): Product {
  const product = items[index];
  if (product === undefined) throw new Error(`no product ${index}`);
  return product;
}

function joinedBytes(pieces: PieceSequence, run?: Run): Buffer {
  return Buffer.concat([...pieces.chunks(run?.from, run?.to)]);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('a document of products cut along runs of products', () => {
  it('when the document is cut then its parts join to its bytes, none is over max, and each is named by its SHA-256', () => {
    const pieces = piecesOf(products, 'T1', new Set());
    const parts = cutRunParts('agent-catalog.json', pieces, SIZES, mapCache());
    const bytes = parts.map((part) => part.read());
    expect(Buffer.concat(bytes).equals(joinedBytes(pieces))).toBe(true);
    expect(parts.length).toBeGreaterThan(4);
    for (const [index, part] of parts.entries()) {
      expect(part.length).toBeLessThanOrEqual(SIZES.max);
      expect(part.sha256).toBe(sha256(bytes[index] as Buffer));
    }
    // A part is cut at the start of a UTF-8 character: each is text on its own.
    for (const part of bytes) expect(Buffer.from(part.toString('utf8'), 'utf8').equals(part)).toBe(true);
  });

  it('when a run is longer than max then it is cut as the cutter cuts it, and a run that fits is one part', () => {
    // One product far over max: its run is cut where a part would pass max, at a character start.
    const large = Buffer.from(`  {"slug":"large","about":"${'aü'.repeat(1_700)}"}`, 'utf8');
    const small = Buffer.from('  {"slug":"small"}', 'utf8');
    const head = Buffer.from('{"products":[\n');
    const tail = Buffer.from('\n]}\n');
    const elements = bufferElements([large, small], { slugs: ['large', 'small'], keys: ['large', 'small'] });
    const pieces = new PieceSequence([head, { elements, between: Buffer.from(',\n') }, tail]);
    const parts = cutRunParts('agent-catalog.json', pieces, SIZES, mapCache());
    const atMax = { min: SIZES.max, avg: SIZES.max, max: SIZES.max };
    // Each product is a run of its own here (a run is about avg bytes, and these are larger).
    const expected = [
      head,
      ...[...cutParts([large], atMax)].map((part) => Buffer.from(part)),
      Buffer.concat([Buffer.from(',\n'), small]),
      tail,
    ];
    expect(large.length).toBeGreaterThan(SIZES.max * 2);
    expect(parts.map((part) => part.read().toString('hex'))).toEqual(
      expected.map((bytes) => bytes.toString('hex')),
    );
    expect(parts.map((part) => part.sha256)).toEqual(expected.map(sha256));
  });

  it('when the document is parted then each part is stored as it is cut, before the later products are read', () => {
    const reads = new Set<string>();
    const readAtStore: number[] = [];
    const pieces = piecesOf(products, 'T1', reads);
    const parted = partDocument(
      { path: 'agent-catalog.json', mediaType: 'application/json' },
      pieces,
      [],
      SIZES,
      mapCache(),
      () => readAtStore.push(reads.size),
    );
    expect('manifest' in parted).toBe(true);
    expect(readAtStore.length).toBeGreaterThan(4);
    // The first part went to the sink while most products were still to be read.
    expect(readAtStore[0]).toBeLessThan(products.length / 4);
    expect(reads.size).toBe(products.length);
  });

  it('when one price changed then only the head and that product’s run are cut again, and no other product is read', () => {
    const cache = mapCache();
    const before = cutRunParts('agent-catalog.json', piecesOf(products, 'T1', new Set()), SIZES, cache);
    const changed = products.map((product) =>
      product.slug === 'juice-0200' ? { ...product, price: product.price + 1 } : product,
    );
    const reads = new Set<string>();
    const pieces = piecesOf(changed, 'T2', reads);
    const after = cutRunParts('agent-catalog.json', pieces, SIZES, cache);
    const read = [...reads].sort();
    const old = new Set(before.map((part) => part.sha256));
    const fresh = after.filter((part) => !part.kept);
    expect(after.filter((part) => part.kept).every((part) => old.has(part.sha256))).toBe(true);
    // Cut again: the head (it names the build), then the run holding the changed product.
    const runs = groupRuns(pieces, cache.runLength('agent-catalog.json') ?? 1);
    const run = runs.find((item) => [...runSlugs(pieces, item)].includes('juice-0200'));
    if (run === undefined || runs[0] === undefined) throw new Error('the changed product is in a run');
    const [head, ...rest] = fresh.map((part) => part.read());
    expect(head?.equals(joinedBytes(pieces, runs[0]))).toBe(true);
    expect(Buffer.concat(rest).equals(joinedBytes(pieces, run))).toBe(true);
    const expected = new Set([
      ...products.slice(0, 64).map((product) => product.slug),
      ...runSlugs(pieces, run),
    ]);
    expect(run.members).toBeLessThan(products.length / 2);
    expect(read).toEqual([...expected].sort());
    expect(Buffer.concat(after.map((part) => part.read())).equals(joinedBytes(pieces))).toBe(true);
  });

  it('when a product is added then the runs before and after it keep their parts', () => {
    const cache = mapCache();
    const before = cutRunParts('kb.md', piecesOf(products, 'T1', new Set()), SIZES, cache);
    const added = [...products, { slug: 'juice-0200a', price: 5 }].sort((a, b) => (a.slug < b.slug ? -1 : 1));
    const after = cutRunParts('kb.md', piecesOf(added, 'T1', new Set()), SIZES, cache);
    const old = new Set(before.map((part) => part.sha256));
    // Cut again: the run the new product joined, the one before it when it starts a run, and
    // rarely the next (a run's length counts in where the next one starts).
    const fresh = after.filter((part) => !old.has(part.sha256));
    const pieces = piecesOf(added, 'T1', new Set());
    const runs = groupRuns(pieces, cache.runLength('kb.md') ?? 1);
    const at = runs.findIndex((item) => [...runSlugs(pieces, item)].includes('juice-0200a'));
    const around = Buffer.concat(
      runs.slice(Math.max(0, at - 1), at + 2).map((run) => joinedBytes(pieces, run)),
    );
    expect(fresh.length).toBeGreaterThan(0);
    expect(around.includes(Buffer.concat(fresh.map((part) => part.read())))).toBe(true);
    expect(fresh.reduce((total, part) => total + part.length, 0)).toBeLessThan(
      after.reduce((total, part) => total + part.length, 0) / 2,
    );
  });

  it('when runs are 64 products long then none is shorter than a quarter of that, and they gather near it', () => {
    const many: Product[] = Array.from({ length: 20_000 }, (_, index) => ({ slug: `p-${index}`, price: 1 }));
    const runs = groupRuns(piecesOf(many, 'T1', new Set()), 64).filter((run) => run.members > 0);
    const lengths = runs.slice(0, -1).map((run) => run.members);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(16);
    const mean = lengths.reduce((total, length) => total + length, 0) / lengths.length;
    expect(mean).toBeGreaterThan(48);
    expect(mean).toBeLessThan(96);
    // With one rule throughout, a run's length would be geometric: about 13.5% over twice the mean.
    expect(lengths.filter((length) => length > 2 * 64).length / lengths.length).toBeLessThan(0.05);
  });

  it('when the runs are cut again with no cache then the parts are the same: a rebuild and a cold build agree', () => {
    const cache = mapCache();
    cutRunParts('feed.xml', piecesOf(products, 'T1', new Set()), SIZES, cache);
    const changed = products.map((product, index) => (index % 97 === 5 ? { ...product, price: 1 } : product));
    const rebuilt = cutRunParts('feed.xml', piecesOf(changed, 'T2', new Set()), SIZES, cache);
    const cold = cutRunParts('feed.xml', piecesOf(changed, 'T2', new Set()), SIZES, mapCache());
    expect(rebuilt.map((part) => part.sha256)).toEqual(cold.map((part) => part.sha256));
    expect(partsDigest(rebuilt)).toBe(partsDigest(cold));
  });

  it('when a kept part is asked for its bytes then they are read from its run, the same bytes as when it was cut', () => {
    const cache = mapCache();
    const first = cutRunParts('agent-catalog.json', piecesOf(products, 'T1', new Set()), SIZES, cache);
    const again = cutRunParts('agent-catalog.json', piecesOf(products, 'T1', new Set()), SIZES, cache);
    expect(again.every((part) => part.kept)).toBe(true);
    expect(again.map((part) => sha256(part.read()))).toEqual(first.map((part) => part.sha256));
  });

  it('when the digest of the parts is taken then it changes with any byte, and is SHA-256 over one line a part', () => {
    const parts = [
      { length: 3, sha256: sha256(Buffer.from('abc')) },
      { length: 2, sha256: sha256(Buffer.from('de')) },
    ];
    const lines = parts.map((part) => `${part.length} ${part.sha256}\n`).join('');
    expect(partsDigest(parts)).toBe(sha256(Buffer.from(lines)));
    expect(partsDigest([parts[0] as RunPart, { length: 2, sha256: sha256(Buffer.from('dx')) }])).not.toBe(
      partsDigest(parts),
    );
  });
});
