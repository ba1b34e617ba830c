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
  idsFile,
  type PricePartitionFile,
  priceFile,
  ROOT_FILE,
  SEARCH_INDEX_FORMAT,
  type SearchRoot,
  type TermPartitionFile,
  termFile,
  wordsFile,
} from './search-partition-format.js';

/** Reads a file of the index by its name inside the index folder; undefined when absent. */
export type IndexFileReader = (name: string) => Promise<string | undefined>;

export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError';
}

/**
 * What an isolate keeps of the index at most. At 1,000,000 products the price order is
 * about 16 MB decoded, so a wide price range stays cached beside the terms in use, and
 * the whole handler stays inside 64 MB (BENCHMARKS.md).
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** A run of the vocabulary with each term's products (ascending) and impact bytes. */
export interface TermPartition {
  terms: string[];
  products: Uint32Array[];
  impacts: Uint8Array[];
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
  /** The vocabulary's words of this length, ascending. */
  words(length: number): Promise<string[]>;
  prices(partition: number): Promise<PricePartition>;
  facets(block: number): Promise<Uint32Array>;
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
  if (root.term_files?.length !== root.terms?.length || root.price_files?.length !== root.prices?.length) {
    throw new SearchIndexError('the search index root names a different number of partitions than it bounds');
  }
  const cache = new ByteLru<unknown>(cacheBytes);
  const cached = <T>(name: string, decode: (json: unknown) => { value: T; bytes: number }): Promise<T> =>
    cache.get(name, async () => {
      const json = await readJson(name);
      try {
        return decode(json);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new SearchIndexError(`the search index's ${name} cannot be read (${reason})`);
      }
    }) as Promise<T>;
  const wordParts = new Map(root.words);
  /** How many products a block of this size holds: the last one may hold fewer. */
  const blockLength = (block: number, size: number): number =>
    Math.max(0, Math.min(size, root.products - block * size));
  return {
    root,
    terms: (partition) =>
      cached(termFile(root.term_files[partition] ?? ''), (json) =>
        decodeTerms(json as TermPartitionFile, root.products),
      ),
    async words(length) {
      const parts = wordParts.get(length) ?? 0;
      const lists = await Promise.all(
        Array.from({ length: parts }, (_, part) =>
          cached(wordsFile(length, part), (json) => ({ value: stringList(json), bytes: textBytes(json) })),
        ),
      );
      return lists.length === 1 ? (lists[0] as string[]) : lists.flat();
    },
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
    ids: (block) =>
      cached(idsFile(block), (json) => {
        const ids = stringList(json);
        expectLength(ids.length, blockLength(block, root.ids_block), 'ids');
        return { value: ids, bytes: textBytes(json) };
      }),
  };
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

function decodeTerms(file: TermPartitionFile, count: number): { value: TermPartition; bytes: number } {
  const { terms, counts, lengths } = file;
  if (!Array.isArray(terms) || counts?.length !== terms.length || lengths?.length !== terms.length) {
    throw new TypeError('terms, counts and lengths differ in length');
  }
  const bytes = base64ToBytes(file.postings);
  const impactBytes = base64ToBytes(file.impacts);
  const total = counts.reduce((sum, size) => sum + size, 0);
  if (impactBytes.length !== total)
    throw new TypeError(`${impactBytes.length} impacts for ${total} postings`);
  const all = new Uint32Array(total);
  const products: Uint32Array[] = [];
  const impacts: Uint8Array[] = [];
  const reader = new Leb128Reader(bytes);
  let posting = 0;
  let end = 0;
  for (let term = 0; term < terms.length; term += 1) {
    const start = posting;
    end += lengths[term] as number;
    let previous = 0;
    for (let index = 0; index < (counts[term] as number); index += 1) {
      previous += reader.next();
      if (reader.at > end) throw new TypeError(`the postings of "${terms[term]}" are cut short`);
      if (previous >= count) throw new TypeError(`"${terms[term]}" names product ${previous} of ${count}`);
      all[posting] = previous;
      posting += 1;
    }
    if (reader.at !== end)
      throw new TypeError(`the postings of "${terms[term]}" are not ${lengths[term]} bytes`);
    products.push(all.subarray(start, posting));
    impacts.push(impactBytes.subarray(start, posting));
  }
  return {
    value: { terms, products, impacts },
    bytes: all.byteLength + impactBytes.byteLength + textBytes(terms) + 64 * terms.length,
  };
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
