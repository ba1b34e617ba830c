/**
 * The live data built from a catalog read one product at a time (live/record-source.ts):
 * a source that parses a fresh record on every read (as a list on disk does) gives the
 * same files as an array, the catalog is iterated once, each shard reads back only its own
 * members and only while it is packed, and a source whose length and iteration disagree
 * is refused. The emitter does the same with a plan whose products are such a list.
 */
import { describe, expect, it } from 'vitest';
import { artifactBytes } from '../../generator/compact-artifact.js';
import { emitLiveIndex } from '../../generator/emit/live-index.js';
import { emitProductPages } from '../../generator/emit/product-page-shards.js';
import type { BuildPlan, PlannedProducts } from '../../generator/plan.js';
import { KeyColumnWriter } from '../../generator/product-store/product-keys.js';
import { buildLiveFiles } from '../../live/live-files.js';
import type { ShardPacker, VariantPairs } from '../../live/product-shards.js';
import type { RecordSource } from '../../live/record-source.js';
import type { ProductRecord } from '../../record/product-record.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../helpers/sample-plan.js';
import { LIVE_SETTINGS } from './live-settings.js';
import { SMALL_PARTITIONS } from './partitioned-index.js';
import { makeVariedRecords } from './varied-catalog.js';

/** Few shards, so each holds many products and a variant shard holds some product twice over. */
const OPTIONS = { indexSizes: SMALL_PARTITIONS, shards: { products: 8, variants: 4 } };

/** What a source did, in order: each `at(i)`, each start of an iteration. */
type Read = { at: number } | { iteration: true };

/** A source like a list on disk: every read is a deep copy, never the same object twice. */
function freshSource(records: readonly ProductRecord[], reads: Read[] = []): RecordSource {
  return {
    length: records.length,
    at(index) {
      reads.push({ at: index });
      const record = records[index];
      return record === undefined ? undefined : structuredClone(record);
    },
    *[Symbol.iterator]() {
      reads.push({ iteration: true });
      for (const record of records) yield structuredClone(record);
    },
  };
}

function bodiesOf(files: readonly { path: string; body: string | Uint8Array }[]): [string, string][] {
  return files.map(({ path, body }) => [path, Buffer.from(body).toString('base64')]);
}

describe('the live files of a record source', () => {
  const records = makeVariedRecords(300);
  const fromArray = bodiesOf(buildLiveFiles(records, LIVE_SETTINGS, OPTIONS));

  it('when every read gives a fresh copy then the files are the array’s, byte for byte', () => {
    expect(bodiesOf(buildLiveFiles(freshSource(records), LIVE_SETTINGS, OPTIONS))).toEqual(fromArray);
    // And with the shard counts chosen from the catalog's size.
    expect(bodiesOf(buildLiveFiles(freshSource(records), LIVE_SETTINGS))).toEqual(
      bodiesOf(buildLiveFiles(records, LIVE_SETTINGS)),
    );
  });

  it('reads the catalog in one pass, then each shard’s members only while that shard is packed', () => {
    const reads: Read[] = [];
    const events: (Read | { shard: string; members: readonly number[] })[] = [];
    const source = freshSource(records, reads);
    const packShard: ShardPacker = ({ kind, index, members }, pack) => {
      events.push(...reads.splice(0), { shard: `${kind}/${index}`, members });
      const body = pack();
      events.push(...reads.splice(0));
      return body;
    };
    const files = buildLiveFiles(source, LIVE_SETTINGS, { ...OPTIONS, packShard });
    events.push(...reads.splice(0));
    expect(bodiesOf(files)).toEqual(fromArray);

    const [first, ...rest] = events;
    expect(first).toEqual({ iteration: true });
    const shards = rest.filter((event) => 'shard' in event);
    expect(shards).toHaveLength(OPTIONS.shards.products + OPTIONS.shards.variants);
    // After each shard's mark, up to the next one, the reads are exactly its members, once each.
    let members: readonly number[] | undefined;
    let read: number[] = [];
    for (const event of [...rest, { shard: 'end', members: [] }]) {
      if ('iteration' in event) throw new Error('the catalog was iterated more than once');
      if ('at' in event) read.push(event.at);
      else {
        if (members !== undefined) expect(read).toEqual(members);
        members = event.members;
        read = [];
      }
    }
    // Every product is a member of one product shard, and of the variant shards its variants are in.
    const productMembers = shards.slice(0, OPTIONS.shards.products).flatMap((event) => event.members);
    expect([...productMembers].sort((a, b) => a - b)).toEqual(records.map((_, index) => index));
  });

  it('when the packer gives the members’ records then none is read again', () => {
    const reads: Read[] = [];
    const packShard: ShardPacker = ({ members }, pack) =>
      pack(members.map((index) => structuredClone(records[index] as ProductRecord)));
    const files = buildLiveFiles(freshSource(records, reads), LIVE_SETTINGS, { ...OPTIONS, packShard });
    expect(bodiesOf(files)).toEqual(fromArray);
    expect(reads).toEqual([{ iteration: true }]);
  });

  it('when the variant shards’ entries are noted as the catalog is read then only the product shards read their members', () => {
    const reads: Read[] = [];
    const noted = new Map<number, [string, string][]>();
    const variantPairs: VariantPairs = {
      add: (shard, variantId, productId) =>
        noted.set(shard, [...(noted.get(shard) ?? []), [variantId, productId]]),
      of: (shard) => noted.get(shard) ?? [],
    };
    const files = buildLiveFiles(freshSource(records, reads), LIVE_SETTINGS, { ...OPTIONS, variantPairs });
    expect(bodiesOf(files)).toEqual(fromArray);
    // Each product once, for its product shard; a variant shard reads none.
    const at = reads.flatMap((read) => ('at' in read ? [read.at] : []));
    expect([...at].sort((a, b) => a - b)).toEqual(records.map((_, index) => index));
    expect([...noted.values()].flat()).toHaveLength(
      records.reduce((sum, record) => sum + record.variants.length, 0),
    );
  });

  it('refuses a packer that gives another count of records than the shard has members', () => {
    const packShard: ShardPacker = (_shard, pack) => pack([]);
    expect(() => buildLiveFiles(records, LIVE_SETTINGS, { ...OPTIONS, packShard })).toThrow(TypeError);
  });

  it('refuses a source whose iteration gives more or fewer records than its length', () => {
    const short: RecordSource = {
      length: 5,
      at: (index) => records[index],
      [Symbol.iterator]: () => records.slice(0, 4).values(),
    };
    const long: RecordSource = {
      length: 3,
      at: (index) => records[index],
      [Symbol.iterator]: () => records.slice(0, 4).values(),
    };
    expect(() => buildLiveFiles(short, LIVE_SETTINGS)).toThrow(TypeError);
    expect(() => buildLiveFiles(long, LIVE_SETTINGS)).toThrow(TypeError);
  });
});

describe('the live emitter over products read one at a time', () => {
  it('when the plan’s products are fresh copies on every read then the artifacts are the array’s', () => {
    const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: true } });
    const plan = makeSamplePlan({ config, products: makeManyProducts(config, 200) });
    const products = plan.products;
    // Only what a list on disk offers (`length`, `at`, iteration): an emitter that used
    // `map`, an index or a record's identity would fail here.
    const list: PlannedProducts = {
      length: products.length,
      at: (index: number) => structuredClone(products.at(index)),
      *[Symbol.iterator]() {
        for (const product of products) yield structuredClone(product);
      },
    };
    const fresh: BuildPlan = { ...plan, products: list };
    const artifactsOf = (of: BuildPlan) =>
      [...emitLiveIndex(of)].map((artifact) => [
        artifact.path,
        artifact.mediaType,
        artifactBytes(artifact).toString('base64'),
      ]);
    const expected = artifactsOf(plan);
    expect(expected.some(([path]) => path?.startsWith('_live/products/'))).toBe(true);
    expect(artifactsOf(fresh)).toEqual(expected);
  });
});

describe('the shards made one at a time, as the bundle’s writer asks for them', () => {
  /** A plan whose products count each read by position (what packing a shard does). */
  function countingPlan(count: number) {
    const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: true } });
    const plan = makeSamplePlan({ config, products: makeManyProducts(config, count) });
    const products = plan.products;
    const reads = { at: 0 };
    // The slugs and digests in their column, as a list on disk has them: sorting pages into shards reads no product.
    const keys = new KeyColumnWriter();
    for (const product of products) keys.add(product);
    const list: PlannedProducts = {
      length: products.length,
      keyColumn: keys.finish(),
      at: (index: number) => {
        reads.at += 1;
        return products.at(index);
      },
      [Symbol.iterator]: () => products[Symbol.iterator](),
    };
    // Several shards of each kind, so taking the first one is not taking them all.
    const shards = { ...plan.shards, pages: 8, products: 8, variants: 4 };
    return { plan: { ...plan, products: list, shards } as BuildPlan, reads };
  }

  /** Takes artifacts until one whose path `stop` accepts, and returns that path. */
  function takeUntil(artifacts: Iterator<{ path: string }>, stop: (path: string) => boolean): string {
    for (let next = artifacts.next(); !next.done; next = artifacts.next())
      if (stop(next.value.path)) return next.value.path;
    throw new Error('no such artifact');
  }

  it('when the live files are taken one by one then a product shard’s records are read only when it is taken', () => {
    const { plan, reads } = countingPlan(300);
    const artifacts = emitLiveIndex(plan)[Symbol.iterator]();
    takeUntil(artifacts, (path) => path.startsWith('_live/index/'));
    // The search index is built from one iteration: no shard was packed yet.
    expect(reads.at).toBe(0);
    takeUntil(artifacts, (path) => path.startsWith('_live/products/'));
    expect(reads.at).toBeGreaterThan(0);
    expect(reads.at).toBeLessThan(300);
  });

  it('when the products are on disk then the variant shards are packed without reading a product', () => {
    const { plan, reads } = countingPlan(300);
    const onDisk = [...emitLiveIndex(plan)];
    // Each product once, for its product shard.
    expect(reads.at).toBe(300);
    expect(onDisk.filter((artifact) => artifact.path.startsWith('_live/variants/')).length).toBe(4);
    // The bytes a list in the heap gives, which reads the variant shards' members back.
    const { keyColumn: _keys, ...inHeap } = plan.products;
    const expected = [...emitLiveIndex({ ...plan, products: inHeap } as BuildPlan)];
    expect(reads.at).toBeGreaterThan(600);
    const bytesOf = (artifacts: typeof onDisk) =>
      artifacts.map((artifact) => [artifact.path, artifactBytes(artifact).toString('base64')]);
    expect(bytesOf(onDisk)).toEqual(bytesOf(expected));
  });

  it('when the page shards are taken one by one then each shard’s pages are rendered only when it is taken', () => {
    const { plan, reads } = countingPlan(300);
    const artifacts = emitProductPages(plan)[Symbol.iterator]();
    takeUntil(artifacts, (path) => path === '_live/pages.json');
    expect(reads.at).toBe(0);
    takeUntil(artifacts, (path) => path.startsWith('_live/pages/'));
    expect(reads.at).toBeGreaterThan(0);
    expect(reads.at).toBeLessThan(300);
  });
});
