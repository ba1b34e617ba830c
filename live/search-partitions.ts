/**
 * The search index's partition files as the handler reads them: the root once, every
 * other file when a query first needs it, decoded into typed arrays and kept in one cache
 * bounded by bytes (least recently used out first). A file that is missing, of another
 * shape or cut short is a `SearchIndexError`: the bundle is broken, not the request.
 */
import { SectionReader } from './binary-sections.js';
import { ByteLru } from './byte-lru.js';
import { gunzipBytes } from './gzip-text.js';
import { PackedStrings } from './packed-strings.js';
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
  priceFile,
  ROOT_FILE,
  reversedVocabFile,
  SEARCH_INDEX_FORMAT,
  type SearchRoot,
  type SpanColumn,
  spanFile,
  termFile,
  vocabFile,
} from './search-partition-format.js';

/**
 * Reads a file of the index by its name inside the index folder, as text (the root) or as
 * bytes (every other file, gzipped: the store unpacks them); undefined when absent.
 */
export interface IndexFileReader {
  text(name: string): Promise<string | undefined>;
  bytes(name: string): Promise<Uint8Array | undefined>;
}

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
  const parseJson = (name: string, text: string | undefined): unknown => {
    if (text === undefined) throw new SearchIndexError(`the search index has no ${name}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new SearchIndexError(`the search index's ${name} is not JSON`);
    }
  };
  /** A file's bytes, unpacked; a file that does not unpack is a broken index. */
  const readBytes = async (name: string): Promise<Uint8Array> => {
    const bytes = await read.bytes(name);
    if (bytes === undefined) throw new SearchIndexError(`the search index has no ${name}`);
    try {
      return await gunzipBytes(bytes);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SearchIndexError(`the search index's ${name} cannot be unpacked (${reason})`);
    }
  };
  const readJson = async (name: string): Promise<unknown> =>
    parseJson(name, new TextDecoder().decode(await readBytes(name)));
  const root = parseJson(ROOT_FILE, await read.text(ROOT_FILE)) as SearchRoot;
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
  const cachedAs = <F, T>(
    name: string,
    readFile: (name: string) => Promise<F>,
    decode: (file: F, grow: (bytes: number) => void) => { value: T; bytes: number },
  ): Promise<T> =>
    cacheOf(name).get(name, async () => {
      const file = await readFile(name);
      try {
        return decode(file, (bytes) => cacheOf(name).grow(name, bytes));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new SearchIndexError(`the search index's ${name} cannot be read (${reason})`);
      }
    }) as Promise<T>;
  const cached = <T>(name: string, decode: (json: unknown) => { value: T; bytes: number }): Promise<T> =>
    cachedAs(name, readJson, decode);
  const cachedBytes = <T>(
    name: string,
    decode: (bytes: Uint8Array, grow: (bytes: number) => void) => { value: T; bytes: number },
  ): Promise<T> => cachedAs(name, readBytes, decode);
  /** How many products a block of this size holds: the last one may hold fewer. */
  const blockLength = (block: number, size: number): number =>
    Math.max(0, Math.min(size, root.products - block * size));
  return {
    root,
    terms: (partition) =>
      cachedBytes(termFile(root.term_files[partition] ?? ''), (bytes, grow) =>
        decodeTerms(bytes, root.products, grow),
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
      cachedBytes(priceFile(root.price_files[partition] ?? ''), (bytes) =>
        decodePrices(bytes, root.products),
      ),
    facets: (block) =>
      cachedBytes(facetsFile(block), (bytes) => {
        const file = new SectionReader(bytes);
        const facets = file.uint32s(blockLength(block, root.facets_block), 'facets');
        file.end();
        return { value: facets, bytes: bytes.byteLength };
      }),
    spans: (column, block) =>
      cachedBytes(spanFile(column, block), (bytes) => {
        const file = new SectionReader(bytes);
        const values = file.float64s(blockLength(block, root.facets_block), 'spans');
        file.end();
        return { value: values, bytes: bytes.byteLength };
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
