/**
 * The search index's builder in bounded bytes (issue 29): at 1,000,000 products what it
 * keeps a posting, a product and a term decides whether the build fits in 1 GiB. The
 * builder's typed arrays are counted (their `byteLength`, not the process's memory), so a
 * structure that grows by a number or an object a posting shows here as bytes past the bound.
 * Its files stay the bytes main's builder wrote before it kept the index this way.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mapShopifyProduct } from '../../generator/normalise/shopify.js';
import { SectionWriter } from '../../live/binary-sections.js';
import { putVarint } from '../../live/leb128-writer.js';
import { buildLiveFiles } from '../../live/live-files.js';
import { ColumnsBuilder } from '../../live/search-columns-file.js';
import { buildSearchIndexOfRows, searchRowOf } from '../../live/search-index-file.js';
import { readTermPartition } from '../../live/search-partition-format.js';
import { type PartitionSizes, searchPartitions } from '../../live/search-partitions-file.js';
import { PostingsBuilder } from '../../live/search-postings-builder.js';
import { ONE_IMPACT, POSTINGS_AS_RUNS, readRuns } from '../../live/search-term-encoding.js';
import { tokenise } from '../../live/search-tokens.js';
import { StringChunks } from '../../live/string-chunks.js';
import type { ProductRecord } from '../../record/product-record.js';
import { makeShopifyProduct } from '../fixtures/upstream/make-products.js';
import { makeAwkwardRecords } from './awkward-catalog.js';
import { LIVE_SETTINGS } from './live-settings.js';
import { SMALL_PARTITIONS } from './partitioned-index.js';
import { makeVariedRecords } from './varied-catalog.js';

/** The tests' Shopify products (test/fixtures/upstream), mapped as the build maps them. */
function fixtureRecords(count: number): ProductRecord[] {
  const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };
  return Array.from({ length: count }, (_, index) => {
    const outcome = mapShopifyProduct(makeShopifyProduct(index), context);
    if (!outcome.ok) throw new TypeError(outcome.rejected.reason);
    return outcome.product.record;
  });
}

/**
 * A format 8 term partition as format 6 wrote it: no shapes section, every term's products
 * as LEB128 gaps and one impact byte a product. Formats 7 and 8 differ only in how a term is
 * stored (runs, one impact) and in its files' names (`.gz`, gzipped by the bundle's
 * writer), so its files read back this way must be main's, byte for byte.
 */
function termPartitionAsFormat6(body: Uint8Array): Uint8Array {
  const { text, termLengths, counts, lengths, shapes, postings, impacts } = readTermPartition(body);
  const gapParts: Uint8Array[] = [];
  const impactParts: Uint8Array[] = [];
  let byteAt = 0;
  let impactAt = 0;
  counts.forEach((count, term) => {
    const shape = shapes[term] as number;
    const stored = postings.subarray(byteAt, byteAt + (lengths[term] as number));
    byteAt += lengths[term] as number;
    if (shape & POSTINGS_AS_RUNS) {
      const products = readRuns(stored, count, Number.MAX_SAFE_INTEGER, () => `term ${term}`);
      const gaps = new Uint8Array(5 * count);
      let at = 0;
      products.forEach((product, index) => {
        at = putVarint(gaps, at, product - (index === 0 ? 0 : (products[index - 1] as number)));
      });
      gapParts.push(gaps.subarray(0, at));
    } else gapParts.push(stored);
    const storedImpacts = shape & ONE_IMPACT ? 1 : count;
    const own = impacts.subarray(impactAt, impactAt + storedImpacts);
    impactAt += storedImpacts;
    impactParts.push(shape & ONE_IMPACT ? new Uint8Array(count).fill(own[0] as number) : own);
  });
  const writer = new SectionWriter()
    .uint32s([counts.length, new TextEncoder().encode(text).length])
    .uint32s(counts)
    .uint32s(gapParts.map((gaps) => gaps.length))
    .uint32s(termLengths)
    .bytes(new TextEncoder().encode(text));
  for (const gaps of gapParts) writer.bytes(gaps);
  for (const own of impactParts) writer.bytes(own);
  return writer.finish();
}

/** A search index file as format 6 wrote it: the root says 6, the term partitions as above. */
function asFormat6(path: string, body: string | Uint8Array): string | Uint8Array {
  if (path.endsWith('/root.json') && typeof body === 'string') {
    const root = JSON.parse(body) as { format: number };
    expect(root.format).toBe(8);
    return body.replace('{"format":8,', '{"format":6,');
  }
  if (path.includes('/terms/') && typeof body !== 'string') return termPartitionAsFormat6(body);
  return body;
}

/** sha256 of every search index file's path and contents (as format 6), in the order the live files come. */
function indexDigest(records: ProductRecord[], indexSizes?: PartitionSizes): string {
  const digest = createHash('sha256');
  const shards = { products: 1, variants: 1 };
  for (const { path, body } of buildLiveFiles(records, LIVE_SETTINGS, { indexSizes, shards })) {
    if (!path.startsWith('_live/index/')) continue;
    // Format 8 names every file but the root `.gz` (the bundle's writer gzips them): format 6 did not.
    digest
      .update(`${path.replace(/\.gz$/, '')}\n`)
      .update(asFormat6(path, body))
      .update('\n');
  }
  return digest.digest('hex');
}

describe('the search index files', () => {
  // Digests of the files main's builder wrote (8d0062b, computed by running this same
  // digest there): postings in a list per term, the whole index as JSON and base64, every
  // file made before the first was written. Format 8's files are read back as format 6.
  it.each([
    [
      '3,000 varied products in small partitions',
      () => makeVariedRecords(3_000),
      SMALL_PARTITIONS,
      'fc3791dd028cd1b0fe189875576e062c59f10cb0add93555c008f62c5de7387b',
    ],
    [
      '600 awkward products in small partitions',
      () => makeAwkwardRecords(600),
      SMALL_PARTITIONS,
      '3019af35a03c9a0620402b5245556c2d028acdaeaf180c70162910ba4c262fb3',
    ],
    [
      '5,000 fixture products in default partitions',
      () => fixtureRecords(5_000),
      undefined,
      '6fa6d4b033b84b6e58d352d7216c496e7717fa7749bfe94b1d358408eb55f0e6',
    ],
    [
      '5,000 fixture products in small partitions',
      () => fixtureRecords(5_000),
      SMALL_PARTITIONS,
      '07b96281b94e0fb8e00f3607f8aac688a9751e86d5c08a480261a3855180a5cd',
    ],
    ['no products', () => [], undefined, '6b5cf86008d3d5598ee2800383ae012fa4e84e09c2427b845a2c7a62724a841d'],
  ])('are the bytes main’s builder wrote for %s', (_, make, sizes, digest) => {
    expect(indexDigest(make(), sizes)).toBe(digest);
  });
});

/** The builders fed as `buildSearchIndexOfRows` feeds them, with their bytes after the pass. */
function buildCounted(records: readonly ProductRecord[]) {
  const postings = new PostingsBuilder(records.length);
  const columns = new ColumnsBuilder(records.length);
  for (const record of records) {
    const row = searchRowOf(record);
    columns.add(row);
    postings.addProduct(row.fields.map(tokenise));
  }
  const pass = { postings: postings.byteLength, columns: columns.byteLength };
  const { prices } = columns.finish();
  // What the columns' builder still holds once it has handed them on, while scoring runs.
  const columnsKept = columns.byteLength;
  const built = postings.finish();
  return { pass, finish: postings.finishByteLength, built, variants: prices.length, columnsKept };
}

describe('the builder’s bytes', () => {
  const records = makeAwkwardRecords(3_000);
  const { pass, finish, built, variants, columnsKept } = buildCounted(records);
  const count = records.length;
  const postings = built.impacts.length;
  const terms = built.terms.length;

  it('keep its pass to a few bytes a posting, the field lengths a product and a compact term', () => {
    // Per posting its term's number, field mask and counts (LEB128, 2 to 5 bytes); per
    // product its six field lengths in the stream (LEB128, not 4 bytes each); per term its
    // code units, start, hash and table slots; a chunk of the stream's spare room.
    expect(pass.postings).toBeLessThanOrEqual(5 * postings + 12 * count + 40 * terms + 64 * 1024);
    // Per product its category and variant count, per variant its price and availability.
    expect(pass.columns).toBeLessThanOrEqual(8 * count + 2 * 9 * variants + 1024);
  });

  it('hand the columns on without keeping a copy of them', () => {
    expect(columnsKept).toBeLessThanOrEqual(64);
  });

  it('score the postings into their runs with no product number kept a posting', () => {
    // The gaps (about a byte a posting here) and the impacts (one), and per term its
    // count, rank, idf, last product, byte length and where its two runs are written (32).
    expect(finish).toBeLessThanOrEqual(built.postings.length + postings + 32 * terms);
  });

  it('hand on the vocabulary as chunks of text, not a string a term', () => {
    expect(built.terms).toBeInstanceOf(StringChunks);
    expect((built.terms as StringChunks).byteLength).toBeLessThanOrEqual(6 * terms + 40 * 1024);
  });
});

describe('the index’s files', () => {
  const records = makeVariedRecords(600);
  const rows = () => records.map(searchRowOf);

  it('are each made when the writer asks for it, not before', () => {
    const index = buildSearchIndexOfRows(records.length, rows());
    const files = searchPartitions(index, SMALL_PARTITIONS).files();
    const root = files.next();
    expect(root.done).toBe(false);
    // Changed once the root is out: only files made after that can carry the change.
    index.impacts.fill(7);
    const later = [...files];
    const fresh = [
      ...searchPartitions(buildSearchIndexOfRows(records.length, rows()), SMALL_PARTITIONS).files(),
    ];
    expect([root.value, ...later].map((file) => file.name)).toEqual(fresh.map((file) => file.name));
    const termFiles = later.filter((file) => file.name.startsWith('terms/'));
    expect(termFiles.length).toBeGreaterThan(1);
    for (const file of termFiles) {
      const before = fresh.find((other) => other.name === file.name);
      expect(Buffer.from(file.body).equals(Buffer.from(before?.body ?? ''))).toBe(false);
    }
  });

  it('are counted before any is made', () => {
    const partitions = searchPartitions(buildSearchIndexOfRows(records.length, rows()), SMALL_PARTITIONS);
    expect([...partitions.files()]).toHaveLength(partitions.length);
  });

  it('have the product ids in chunks of text, not a string a product', () => {
    const index = buildSearchIndexOfRows(records.length, rows());
    expect(index.ids).toBeInstanceOf(StringChunks);
    expect(Array.from({ length: index.ids.length }, (_, at) => index.ids.at(at))).toEqual(
      records.map((record) => record.id),
    );
  });
});
