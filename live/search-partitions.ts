/**
 * The search index's partition files as the handler reads them: the root once, every
 * other file when a query first needs it, decoded into typed arrays and kept in one cache
 * bounded by bytes (least recently used out first). A file that is missing, of another
 * shape or cut short is a `SearchIndexError`: the bundle is broken, not the request.
 */
import { base64ToBytes } from './base64-bytes.js';
import { ByteLru } from './byte-lru.js';
import { PackedStrings } from './packed-strings.js';
import { readUint32LittleEndian } from './search-columns-file.js';
import { SearchIndexError } from './search-index-error.js';
import {
  decodePrices,
  decodeTerms,
  expectLength,
  type IdsBlock,
  type PricePartition,
  type TermPartition,
  type TermPostings,
} from './search-partition-decode.js';
import {
  facetsFile,
  type IdsFile,
  idsFile,
  type PricePartitionFile,
  priceFile,
  ROOT_FILE,
  reversedVocabFile,
  SEARCH_INDEX_FORMAT,
  type SearchRoot,
  type SpanColumn,
  type SpanFile,
  spanFile,
  type TermPartitionFile,
  termFile,
  vocabFile,
} from './search-partition-format.js';

/** Reads a file of the index by its name inside the index folder; undefined when absent. */
export type IndexFileReader = (name: string) => Promise<string | undefined>;

export { SearchIndexError };

/**
 * What an isolate keeps of the index at most: five eighths (22.5 MB) for the filter
 * columns (price partitions, facets and spans: at 1,000,000 products the whole price
 * order is about 15 MB decoded and a span column 8 MB), one eighth (4.5 MB) for the ids (a
 * page of results reads one block per result, so a block read again is a file read
 * again; at 1,000,000 products ids of one shape take 5 MB) and the rest (9 MB) for terms
 * and vocabulary, so a run of word queries never pushes the filters or the ids out. Each
 * is counted as what it holds (a term partition grows as its terms are decoded). With
 * the search's own arrays (8 MB at 1,000,000 products), its kept answers (4 MB) and the
 * code, the heap after a collection stays near 52 MB, inside 64 (BENCHMARKS.md).
 */
export const DEFAULT_CACHE_BYTES = 36 * 1024 * 1024;

export type { IdsBlock, PricePartition, TermPartition, TermPostings };

export interface PartitionStore {
  readonly root: SearchRoot;
  terms(partition: number): Promise<TermPartition>;
  /** A file of the sorted vocabulary (`root.vocab`), or of the reversed one (`root.rvocab`). */
  vocab(partition: number, backwards: boolean): Promise<PackedStrings>;
  prices(partition: number): Promise<PricePartition>;
  facets(block: number): Promise<Uint32Array>;
  spans(column: SpanColumn, block: number): Promise<Float64Array>;
  ids(block: number): Promise<IdsBlock>;
}

export async function openPartitionStore(
  read: IndexFileReader,
  cacheBytes: number = DEFAULT_CACHE_BYTES,
): Promise<PartitionStore> {
  const readJson = async (name: string): Promise<unknown> => {
    const text = await read(name);
    if (text === undefined) throw new SearchIndexError(`the search index has no ${name}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new SearchIndexError(`the search index's ${name} is not JSON`);
    }
  };
  const root = (await readJson(ROOT_FILE)) as SearchRoot;
  if (root?.format !== SEARCH_INDEX_FORMAT) {
    throw new SearchIndexError(`search index format ${String(root?.format)} is not ${SEARCH_INDEX_FORMAT}`);
  }
  if (
    root.term_files?.length !== root.terms?.length ||
    root.price_files?.length !== root.prices?.length ||
    root.vocab_files?.length !== root.vocab?.length ||
    root.rvocab_files?.length !== root.rvocab?.length
  ) {
    throw new SearchIndexError('the search index root names a different number of partitions than it bounds');
  }
  const eighth = Math.floor(cacheBytes / 8);
  const columnCache = new ByteLru<unknown>(5 * eighth);
  const idsCache = new ByteLru<unknown>(eighth);
  const textCache = new ByteLru<unknown>(cacheBytes - 6 * eighth);
  const cacheOf = (name: string): ByteLru<unknown> =>
    /^(prices|facets|spans)\//.test(name) ? columnCache : name.startsWith('ids/') ? idsCache : textCache;
  const cached = <T>(
    name: string,
    decode: (json: unknown, grow: (bytes: number) => void) => { value: T; bytes: number },
  ): Promise<T> =>
    cacheOf(name).get(name, async () => {
      const json = await readJson(name);
      try {
        return decode(json, (bytes) => cacheOf(name).grow(name, bytes));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new SearchIndexError(`the search index's ${name} cannot be read (${reason})`);
      }
    }) as Promise<T>;
  /** How many products a block of this size holds: the last one may hold fewer. */
  const blockLength = (block: number, size: number): number =>
    Math.max(0, Math.min(size, root.products - block * size));
  return {
    root,
    terms: (partition) =>
      cached(termFile(root.term_files[partition] ?? ''), (json, grow) =>
        decodeTerms(json as TermPartitionFile, root.products, grow),
      ),
    vocab: (partition, backwards) =>
      cached(
        backwards
          ? reversedVocabFile(root.rvocab_files[partition] ?? '')
          : vocabFile(root.vocab_files[partition] ?? ''),
        (json) => {
          const value = PackedStrings.read(json);
          return { value, bytes: value.bytes };
        },
      ),
    prices: (partition) =>
      cached(priceFile(root.price_files[partition] ?? ''), (json) =>
        decodePrices(json as PricePartitionFile, root.products),
      ),
    facets: (block) =>
      cached(facetsFile(block), (json) => {
        const facets = readUint32LittleEndian(base64ToBytes((json as { facets: string }).facets));
        expectLength(facets.length, blockLength(block, root.facets_block), 'facets');
        return { value: facets, bytes: facets.byteLength };
      }),
    spans: (column, block) =>
      cached(spanFile(column, block), (json) => {
        const values = readFloat64LittleEndian(base64ToBytes((json as SpanFile).values));
        expectLength(values.length, blockLength(block, root.facets_block), 'spans');
        return { value: values, bytes: values.byteLength };
      }),
    ids: (block) =>
      cached(idsFile(block), (json) => {
        const { prefix, ids } = json as IdsFile;
        if (typeof prefix !== 'string') throw new TypeError('no prefix');
        const suffixes = PackedStrings.read(ids);
        expectLength(suffixes.length, blockLength(block, root.ids_block), 'ids');
        const value: IdsBlock = {
          at: (index) => {
            const suffix = suffixes.at(index);
            return suffix === undefined ? undefined : prefix + suffix;
          },
        };
        return { value, bytes: suffixes.bytes + prefix.length };
      }),
  };
}

/** 64-bit little-endian floats, whatever the platform's order. */
function readFloat64LittleEndian(bytes: Uint8Array): Float64Array {
  if (bytes.length % 8 !== 0) throw new TypeError(`a column of ${bytes.length} bytes is cut short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const values = new Float64Array(bytes.length / 8);
  for (let index = 0; index < values.length; index += 1) values[index] = view.getFloat64(index * 8, true);
  return values;
}
