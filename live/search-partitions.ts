/**
 * The search index's partition files as the handler reads them: the root once, every
 * other file when a query first needs it, decoded into typed arrays and kept in one cache
 * bounded by bytes (least recently used out first). A file that is missing, of another
 * shape or cut short is a `SearchIndexError`: the bundle is broken, not the request.
 */
import { base64ToBytes } from './base64-bytes.js';
import { ByteLru } from './byte-lru.js';
import { Leb128Reader } from './leb128-reader.js';
import { readUint32LittleEndian } from './search-columns-file.js';
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

export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError';
}

/**
 * What an isolate keeps of the index at most: five eighths (25 MB) for the filter columns
 * (price partitions, facets and spans: at 1,000,000 products the whole price order is
 * about 16 MB decoded and a span column 8 MB), the rest (15 MB) for terms, vocabulary and
 * ids, so a run of word queries never pushes the filters out. With the search's own
 * arrays (8 MB at 1,000,000 products) and its kept answers (4 MB) the handler stays
 * inside 64 MB (BENCHMARKS.md).
 */
export const DEFAULT_CACHE_BYTES = 40 * 1024 * 1024;

/** A term's products (ascending) and its impact byte for each. */
export interface TermPostings {
  products: Uint32Array;
  impacts: Uint8Array;
}

/** A run of the vocabulary; a term's postings are decoded when first asked for, and kept. */
export interface TermPartition {
  terms: string[];
  postings(at: number): TermPostings;
}

/** A run of the variants in price order: `entries` is product × 2 + available. */
export interface PricePartition {
  first: number;
  entries: Uint32Array;
  /** The entries' prices, decoded on each call (only the partitions at a range's ends need them). */
  prices(): Float64Array;
}

export interface PartitionStore {
  readonly root: SearchRoot;
  terms(partition: number): Promise<TermPartition>;
  /** A file of the sorted vocabulary (`root.vocab`), or of the reversed one (`root.rvocab`). */
  vocab(partition: number, backwards: boolean): Promise<string[]>;
  prices(partition: number): Promise<PricePartition>;
  facets(block: number): Promise<Uint32Array>;
  spans(column: SpanColumn, block: number): Promise<Float64Array>;
  ids(block: number): Promise<string[]>;
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
  const columnCache = new ByteLru<unknown>(Math.floor((cacheBytes * 5) / 8));
  const textCache = new ByteLru<unknown>(cacheBytes - Math.floor((cacheBytes * 5) / 8));
  const cached = <T>(name: string, decode: (json: unknown) => { value: T; bytes: number }): Promise<T> =>
    (/^(prices|facets|spans)\//.test(name) ? columnCache : textCache).get(name, async () => {
      const json = await readJson(name);
      try {
        return decode(json);
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
      cached(termFile(root.term_files[partition] ?? ''), (json) =>
        decodeTerms(json as TermPartitionFile, root.products),
      ),
    vocab: (partition, backwards) =>
      cached(
        backwards
          ? reversedVocabFile(root.rvocab_files[partition] ?? '')
          : vocabFile(root.vocab_files[partition] ?? ''),
        (json) => ({ value: stringList(json), bytes: textBytes(json) }),
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
        const suffixes = stringList(ids);
        expectLength(suffixes.length, blockLength(block, root.ids_block), 'ids');
        const value = suffixes.map((suffix) => prefix + suffix);
        return { value, bytes: textBytes(value) };
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

function expectLength(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new TypeError(`${actual} ${what} where ${expected} belong`);
}

function stringList(json: unknown): string[] {
  if (!Array.isArray(json) || !json.every((item) => typeof item === 'string')) {
    throw new TypeError('not a list of strings');
  }
  return json;
}

/** About what a list of short strings holds in a JS heap: two bytes a character and a header each. */
function textBytes(json: unknown): number {
  return Array.isArray(json) ? json.reduce((sum: number, item) => sum + 2 * String(item).length + 40, 0) : 0;
}

/**
 * A term partition, its postings left as base64 text: a query needs one or two of its
 * terms, so only their slices are decoded (base64 decodes in groups of 4 characters, 3
 * bytes), each checked then: its bytes hold exactly its count of gaps, every product in
 * the catalog. The bytes counted are the text and every term decoded, as if all were.
 */
function decodeTerms(file: TermPartitionFile, count: number): { value: TermPartition; bytes: number } {
  const { terms, counts, lengths, postings, impacts } = file;
  if (!Array.isArray(terms) || counts?.length !== terms.length || lengths?.length !== terms.length) {
    throw new TypeError('terms, counts and lengths differ in length');
  }
  const byteStarts = new Float64Array(terms.length + 1);
  const postingStarts = new Float64Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    byteStarts[term + 1] = (byteStarts[term] as number) + (lengths[term] as number);
    postingStarts[term + 1] = (postingStarts[term] as number) + (counts[term] as number);
  }
  expectLength(base64Length(postings), byteStarts[terms.length] as number, 'postings bytes');
  expectLength(base64Length(impacts), postingStarts[terms.length] as number, 'impacts');
  const decoded = new Map<number, TermPostings>();
  const decode = (at: number): TermPostings => {
    const size = counts[at] as number;
    const bytes = base64Slice(postings, byteStarts[at] as number, byteStarts[at + 1] as number);
    const products = new Uint32Array(size);
    const reader = new Leb128Reader(bytes);
    let previous = 0;
    for (let index = 0; index < size; index += 1) {
      previous += reader.next();
      if (previous >= count) throw new TypeError(`"${terms[at]}" names product ${previous} of ${count}`);
      products[index] = previous;
    }
    if (reader.at !== bytes.length)
      throw new TypeError(`the postings of "${terms[at]}" are not ${bytes.length} bytes`);
    return {
      products,
      impacts: base64Slice(impacts, postingStarts[at] as number, postingStarts[at + 1] as number),
    };
  };
  return {
    value: {
      terms,
      postings(at) {
        let kept = decoded.get(at);
        if (!kept) {
          try {
            kept = decode(at);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new SearchIndexError(`the search index's postings cannot be read (${reason})`);
          }
          decoded.set(at, kept);
        }
        return kept;
      },
    },
    bytes:
      2 * (postings.length + impacts.length) +
      5 * (postingStarts[terms.length] as number) +
      textBytes(terms) +
      16 * terms.length,
  };
}

/** How many bytes a base64 text holds. */
function base64Length(text: unknown): number {
  if (typeof text !== 'string' || text.length % 4 !== 0) return -1;
  return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/** Bytes [start, end) of a base64 text, decoding only the groups of 4 characters that hold them. */
function base64Slice(text: string, start: number, end: number): Uint8Array {
  if (end <= start) return new Uint8Array();
  const first = Math.floor(start / 3);
  const bytes = base64ToBytes(text.slice(first * 4, Math.ceil(end / 3) * 4));
  return bytes.subarray(start - first * 3, end - first * 3);
}

function decodePrices(file: PricePartitionFile, count: number): { value: PricePartition; bytes: number } {
  const entries = readUint32LittleEndian(base64ToBytes(file.entries));
  const steps = base64ToBytes(file.steps);
  const { first } = file;
  if (typeof first !== 'number') throw new TypeError('no first price');
  // Checked once here, so the passes over the entries need no checks: one step ends per
  // entry (its last byte is below 0x80), and every product number is in the catalog.
  let ends = 0;
  for (const byte of steps) if (byte < 0x80) ends += 1;
  expectLength(ends, entries.length, 'price steps');
  for (const entry of entries)
    if (entry >>> 1 >= count) throw new TypeError(`product ${entry >>> 1} of ${count}`);
  const prices = (): Float64Array => {
    const list = new Float64Array(entries.length);
    const reader = new Leb128Reader(steps);
    let price = first;
    for (let index = 0; index < list.length; index += 1) {
      price += reader.next();
      list[index] = price;
    }
    return list;
  };
  return { value: { first, entries, prices }, bytes: entries.byteLength + steps.byteLength };
}
