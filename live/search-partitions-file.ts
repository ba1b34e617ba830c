/**
 * Cuts the search index as the builder hands it on (search-index-file.ts) into the partition
 * files the handler reads one at a time (search-partition-format.ts): the root, the terms,
 * the vocabulary and the ids here, the filter columns in search-column-partitions.ts. Pure:
 * it returns names and bodies, each made when asked for; live-files.ts places them under the
 * bundle's `_live/index/`. Term and price partitions end where an item's hash says so
 * (content-cuts.ts), not every n items, so a changed product moves its own items between
 * partitions and leaves the other boundaries (and files) as they were.
 */
import { concatBytes } from './concat-bytes.js';
import { type Cuts, contentCuts, contentNames, type IndexFile } from './content-cuts.js';
import { fnv1a } from './fnv1a.js';
import { packStrings } from './packed-strings.js';
import { facetFiles, priceCuts, priceFiles, spanFiles, variantStarts } from './search-column-partitions.js';
import type { BuiltSearchIndex } from './search-index-file.js';
import {
  type IdsFile,
  idsFile,
  ROOT_FILE,
  reversed,
  reversedVocabFile,
  SEARCH_INDEX_FORMAT,
  type SearchRoot,
  SPAN_COLUMNS,
  termFile,
  termPartitionBytes,
  vocabFile,
} from './search-partition-format.js';
import { type EncodedTerm, encodeTerm } from './search-term-encoding.js';
import type { StringList } from './string-chunks.js';

export interface PartitionSizes {
  /** Bytes a term partition aims at (postings, impacts, terms). */
  termBytes: number;
  /** Variants a price partition aims at. */
  priceEntries: number;
  /** Products per ids file: a page of results reads up to one per result, so they stay small. */
  idsBlock: number;
  /** Products per facets file (4 bytes each). */
  facetsBlock: number;
  /** Terms a vocabulary file aims at (forward and reversed). */
  vocabTerms: number;
}

/**
 * About 2,000 files at 1,000,000 products (docs/live.md has the counts; with the shards'
 * 11,264 at most and 4,000 kept for parts, well inside Cloudflare Free's 20,000): term
 * files of about 64 KiB (a typo's terms are scattered over the vocabulary, so a word read
 * loosely reads a dozen partitions, and each costs its bytes: 128 KiB of base64 text made
 * the p95 word question read 1.6 MB), price files of about 32,768 variants (a range's
 * ends are found from marks every 64 entries), ids in blocks of 2,048 (a page reads up to one per
 * result, so they stay small), facets in blocks of 65,536.
 */
export const DEFAULT_PARTITION_SIZES: PartitionSizes = {
  termBytes: 64 * 1024,
  priceEntries: 32_768,
  idsBlock: 2048,
  facetsBlock: 65_536,
  vocabTerms: 8_192,
};

/** Every file of the index at once (tests and benchmarks); the build asks `searchPartitions` for one at a time. */
export function buildSearchPartitions(
  index: BuiltSearchIndex,
  sizes: PartitionSizes = DEFAULT_PARTITION_SIZES,
): IndexFile[] {
  return [...searchPartitions(index, sizes).files()];
}

/** The index's files: how many there are, known before any is made, and each made when asked for. */
export interface SearchPartitions {
  readonly length: number;
  /** The root first, then the rest; each body is made only when the caller asks for the next. */
  files(): Generator<IndexFile>;
}

/**
 * Where every partition starts is worked out first (the root names them all), then each
 * file is made when asked for: a writer that stores a file before asking for the next never
 * holds the index's files together (about 130 bytes a product) beside the index itself.
 */
export function searchPartitions(
  index: BuiltSearchIndex,
  sizes: PartitionSizes = DEFAULT_PARTITION_SIZES,
): SearchPartitions {
  const count = index.ids.length;
  const firstVariant = variantStarts(index);
  const terms = termCuts(index, sizes.termBytes);
  const vocab = vocabCuts(
    index.terms,
    Uint32Array.from({ length: index.terms.length }, (_, at) => at),
    sizes.vocabTerms,
  );
  const backwards = vocabCuts(index.terms, backwardsOrder(index.terms), sizes.vocabTerms, reversed);
  const prices = priceCuts(index, firstVariant, sizes.priceEntries);
  const root: SearchRoot = {
    format: SEARCH_INDEX_FORMAT,
    products: count,
    variants: index.prices.length,
    ids_block: sizes.idsBlock,
    facets_block: sizes.facetsBlock,
    categories: index.categories,
    price_span: prices.span,
    terms: terms.firsts,
    term_files: terms.names,
    vocab: vocab.firsts,
    vocab_files: vocab.names,
    rvocab: backwards.firsts,
    rvocab_files: backwards.names,
    prices: prices.firsts,
    price_files: prices.names,
  };
  const blocks = (size: number): number => Math.ceil(count / size);
  return {
    length:
      1 +
      terms.names.length +
      vocab.names.length +
      backwards.names.length +
      prices.names.length +
      (1 + SPAN_COLUMNS.length) * blocks(sizes.facetsBlock) +
      blocks(sizes.idsBlock),
    *files() {
      yield { name: ROOT_FILE, body: JSON.stringify(root) };
      yield* termFiles(index, terms);
      yield* vocabFiles(vocab, vocabFile);
      yield* vocabFiles(backwards, reversedVocabFile);
      yield* priceFiles(index, prices);
      yield* facetFiles(index, firstVariant, sizes.facetsBlock);
      yield* spanFiles(index, firstVariant, sizes.facetsBlock);
      yield* idsFiles(index.ids, sizes.idsBlock);
    },
  };
}

/** The longest prefix every id shares ("gid://shopify/Product/80…"), never splitting a surrogate pair. */
function commonPrefix(ids: readonly string[]): string {
  let prefix = ids[0] ?? '';
  for (const id of ids) {
    let length = 0;
    while (length < prefix.length && length < id.length && prefix[length] === id[length]) length += 1;
    prefix = prefix.slice(0, length);
  }
  const last = prefix.charCodeAt(prefix.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? prefix.slice(0, -1) : prefix;
}

/**
 * Cut by each term's bytes before encoding (gaps and an impact byte a product): a word
 * stored as runs then sits alone in its partition, as in format 6, so formats 7 and 8 cut where
 * format 6 did and each file holds the same terms (test/live/search-index-memory.test.ts).
 */
function termCuts(index: BuiltSearchIndex, target: number): Cuts<string> {
  const starts = contentCuts(
    index.terms.length,
    (term) => fnv1a(index.terms.at(term) as string),
    // Its bytes: postings and impacts, the term and its three numbers.
    (term) =>
      (index.lengths[term] ?? 0) + (index.counts[term] ?? 0) + (index.terms.at(term)?.length ?? 0) + 12,
    target,
  );
  const firsts = starts.map((start) => index.terms.at(start) as string);
  return { starts, firsts, names: contentNames(firsts) };
}

function* termFiles(index: BuiltSearchIndex, { starts, names }: Cuts<string>): Generator<IndexFile> {
  let byteStart = 0;
  let impactStart = 0;
  for (let partition = 0; partition < starts.length; partition += 1) {
    const start = starts[partition] as number;
    const end = starts[partition + 1] ?? index.terms.length;
    const encoded: EncodedTerm[] = [];
    for (let term = start; term < end; term += 1) {
      const byteEnd = byteStart + (index.lengths[term] as number);
      const impactEnd = impactStart + (index.counts[term] as number);
      encoded.push(
        encodeTerm(
          index.postings.subarray(byteStart, byteEnd),
          index.impacts.subarray(impactStart, impactEnd),
          index.counts[term] as number,
        ),
      );
      byteStart = byteEnd;
      impactStart = impactEnd;
    }
    const body = termPartitionBytes({
      terms: Array.from({ length: end - start }, (_, at) => index.terms.at(start + at) as string),
      counts: index.counts.subarray(start, end),
      lengths: encoded.map(({ postings }) => postings.length),
      shapes: Uint8Array.from(encoded, ({ shape }) => shape),
      postings: concatBytes(encoded.map(({ postings }) => postings)),
      impacts: concatBytes(encoded.map(({ impacts }) => impacts)),
    });
    yield { name: termFile(names[partition] as string), body };
  }
}

/** The terms' numbers in the order of their spellings backwards, compared code unit by code unit from the end. */
function backwardsOrder(terms: StringList): Uint32Array {
  return Uint32Array.from({ length: terms.length }, (_, at) => at).sort((a, b) =>
    compareBackwards(terms.at(a) as string, terms.at(b) as string),
  );
}

/** How `reversed(left)` and `reversed(right)` compare, without spelling either backwards. */
function compareBackwards(left: string, right: string): number {
  const shorter = Math.min(left.length, right.length);
  for (let at = 1; at <= shorter; at += 1) {
    const difference = left.charCodeAt(left.length - at) - right.charCodeAt(right.length - at);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

interface VocabCuts extends Cuts<string> {
  /** The items of a partition, from `start` to the next partition's start. */
  list: (partition: number) => string[];
}

/** The terms in `order`, as spelled by `spell`, cut by content into files of about `target` terms. */
function vocabCuts(
  terms: StringList,
  order: Uint32Array,
  target: number,
  spell: (term: string) => string = (term) => term,
): VocabCuts {
  const itemAt = (at: number): string => spell(terms.at(order[at] as number) as string);
  const starts = contentCuts(
    order.length,
    (at) => fnv1a(itemAt(at)),
    () => 1,
    target,
  );
  const firsts = starts.map(itemAt);
  const list = (partition: number): string[] => {
    const start = starts[partition] as number;
    const end = starts[partition + 1] ?? order.length;
    return Array.from({ length: end - start }, (_, at) => itemAt(start + at));
  };
  return { starts, firsts, names: contentNames(firsts), list };
}

function* vocabFiles(cuts: VocabCuts, fileOf: (name: string) => string): Generator<IndexFile> {
  for (let partition = 0; partition < cuts.starts.length; partition += 1) {
    const body = JSON.stringify(packStrings(cuts.list(partition)));
    yield { name: fileOf(cuts.names[partition] as string), body };
  }
}

function* idsFiles(ids: StringList, block: number): Generator<IndexFile> {
  for (let at = 0; at * block < ids.length; at += 1) {
    const start = at * block;
    const list = Array.from(
      { length: Math.min(block, ids.length - start) },
      (_, item) => ids.at(start + item) as string,
    );
    const prefix = commonPrefix(list);
    const file: IdsFile = { prefix, ids: packStrings(list.map((id) => id.slice(prefix.length))) };
    yield { name: idsFile(at), body: JSON.stringify(file) };
  }
}
