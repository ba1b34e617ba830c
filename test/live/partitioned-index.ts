/**
 * The search index of some records as the handler reads it: written by the generator's
 * writer into partition files (in memory), opened through a file reader that counts what
 * it reads. Small partitions by default, so a test catalog spreads over many files.
 */

import { base64ToBytes } from '../../live/base64-bytes.js';
import { readUint32LittleEndian } from '../../live/search-columns-file.js';
import { type LoadedSearchIndex, openSearchIndex, type SearchQuery } from '../../live/search-index.js';
import {
  type BuiltSearchIndex,
  buildSearchIndex,
  type SearchIndexFile,
} from '../../live/search-index-file.js';
import { openPartitionStore } from '../../live/search-partitions.js';
import { buildSearchPartitions, type PartitionSizes } from '../../live/search-partitions-file.js';
import type { ProductRecord } from '../../record/product-record.js';

/** Partitions a few products or postings each: a 3,000-product catalog spans hundreds of files. */
export const SMALL_PARTITIONS: PartitionSizes = {
  termBytes: 256,
  priceEntries: 64,
  idsBlock: 50,
  facetsBlock: 128,
  vocabTerms: 40,
};

export interface OpenedIndex {
  index: LoadedSearchIndex;
  /** The files read so far, by name inside the index folder, in order. */
  reads: string[];
  files: Map<string, string | Uint8Array>;
}

export async function openIndexOf(
  records: readonly ProductRecord[] | SearchIndexFile,
  sizes: PartitionSizes = SMALL_PARTITIONS,
  cacheBytes?: number,
): Promise<OpenedIndex> {
  const whole = Array.isArray(records) ? buildSearchIndex(records) : (records as SearchIndexFile);
  const files = new Map(
    buildSearchPartitions(builtIndexOf(whole), sizes).map((file) => [file.name, file.body]),
  );
  return openIndexFiles(files, cacheBytes);
}

/** The index a whole index file (format 3) holds, as the builder hands it to the partition writer. */
export function builtIndexOf(file: SearchIndexFile): BuiltSearchIndex {
  return {
    ids: file.ids,
    categories: file.categories,
    category: Uint32Array.from(file.category),
    variants: Uint32Array.from(file.variants),
    prices: Float64Array.from(file.prices),
    available: Uint8Array.from(file.available, (bit) => (bit === '1' ? 1 : 0)),
    priceOrder: readUint32LittleEndian(base64ToBytes(file.price_order)),
    terms: file.terms,
    counts: Uint32Array.from(file.counts),
    lengths: Uint32Array.from(file.lengths),
    postings: base64ToBytes(file.postings),
    impacts: base64ToBytes(file.impacts),
  };
}

/** The index these files hold, opened afresh: nothing cached, nothing read but the root. */
export async function openIndexFiles(
  files: Map<string, string | Uint8Array>,
  cacheBytes?: number,
): Promise<OpenedIndex> {
  const reads: string[] = [];
  const read = <T>(
    name: string,
    as: (body: string | Uint8Array) => T | undefined,
  ): Promise<T | undefined> => {
    reads.push(name);
    const body = files.get(name);
    return Promise.resolve(body === undefined ? undefined : as(body));
  };
  const store = await openPartitionStore(
    {
      text: (name) => read(name, (body) => (typeof body === 'string' ? body : undefined)),
      // The writer's bodies, before the bundle's writer gzips them: read as they are.
      bytes: (name) =>
        read(name, (body) => (typeof body === 'string' ? new TextEncoder().encode(body) : body)),
    },
    cacheBytes,
  );
  return { index: openSearchIndex(store), reads, files };
}

/** The ids of a query's matches, best first. */
export async function idsOf(index: LoadedSearchIndex, query: SearchQuery): Promise<string[]> {
  const answer = await index.search(query);
  return index.productIds(answer.subarray(0, answer.length));
}
