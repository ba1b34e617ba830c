/**
 * Cuts the whole search index (search-index-file.ts) into the partition files the handler
 * reads one at a time (search-partition-format.ts). Pure: it returns names and bodies;
 * live-files.ts places them under the bundle's `_live/index/`. Term and price partitions
 * end where an item's hash says so, not every n items, so a changed product moves its own
 * items between partitions and leaves the other boundaries (and files) as they were.
 */
import { base64ToBytes } from './base64-bytes.js';
import { SectionWriter } from './binary-sections.js';
import { ByteWriter } from './byte-writer.js';
import { fnv1a } from './fnv1a.js';
import { packStrings } from './packed-strings.js';
import { readUint32LittleEndian } from './search-columns-file.js';
import type { SearchIndexFile } from './search-index-file.js';
import {
  facetsFile,
  HAS_AVAILABLE,
  HAS_VARIANT,
  type IdsFile,
  idsFile,
  priceFile,
  pricePartitionBytes,
  ROOT_FILE,
  reversed,
  reversedVocabFile,
  SEARCH_INDEX_FORMAT,
  type SearchRoot,
  SPAN_COLUMNS,
  type SpanColumn,
  spanFile,
  termFile,
  termPartitionBytes,
  vocabFile,
} from './search-partition-format.js';

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

/** A file of the index: its name inside the index folder and its JSON text or its bytes (`.bin`). */
export interface IndexFile {
  name: string;
  body: string | Uint8Array;
}

export function buildSearchPartitions(
  index: SearchIndexFile,
  sizes: PartitionSizes = DEFAULT_PARTITION_SIZES,
): IndexFile[] {
  const count = index.ids.length;
  const files: IndexFile[] = [];
  const terms = termPartitions(index, sizes.termBytes);
  files.push(...terms.files);
  const vocab = vocabFiles(index.terms, sizes.vocabTerms, vocabFile);
  const backwards = vocabFiles(
    index.terms.map(reversed).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    sizes.vocabTerms,
    reversedVocabFile,
  );
  files.push(...vocab.files, ...backwards.files);
  const prices = pricePartitions(index, sizes.priceEntries);
  files.push(...prices.files);
  files.push(...facetFiles(index, sizes.facetsBlock), ...spanFiles(index, sizes.facetsBlock));
  for (let block = 0; block * sizes.idsBlock < count; block += 1) {
    const ids = index.ids.slice(block * sizes.idsBlock, (block + 1) * sizes.idsBlock);
    const prefix = commonPrefix(ids);
    const file: IdsFile = { prefix, ids: packStrings(ids.map((id) => id.slice(prefix.length))) };
    files.push({ name: idsFile(block), body: JSON.stringify(file) });
  }
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
  return [{ name: ROOT_FILE, body: JSON.stringify(root) }, ...files];
}

/**
 * The first item of each partition: a partition starts before an item whose hash is a
 * multiple of the stride (so the boundary depends on that item alone), or where the
 * partition would pass twice its target. An item larger than the target (a word most
 * products carry) is a partition of its own, so a query for a rare word never reads a
 * common one's postings. The stride makes the mean size of the other partitions the target.
 */
export function contentCuts(
  count: number,
  hashAt: (item: number) => number,
  sizeAt: (item: number) => number,
  target: number,
): number[] {
  if (count === 0) return [];
  let total = 0;
  let small = 0;
  for (let item = 0; item < count; item += 1) {
    const itemSize = sizeAt(item);
    if (itemSize > target) continue;
    total += itemSize;
    small += 1;
  }
  const mean = Math.max(total / Math.max(1, small), 1e-9);
  const stride = 2 ** Math.min(30, Math.max(0, Math.round(Math.log2(target / mean))));
  const starts = [0];
  let size = 0;
  let previousAlone = false;
  for (let item = 0; item < count; item += 1) {
    const itemSize = sizeAt(item);
    const alone = itemSize > target;
    if (item > 0 && (alone || previousAlone || hashAt(item) % stride === 0 || size + itemSize > 2 * target)) {
      starts.push(item);
      size = 0;
    }
    size += itemSize;
    previousAlone = alone;
  }
  return starts;
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
 * A partition's name: the hash of its first item's key in base 36, with a suffix should two
 * hash alike, so it stays the same while that item starts the partition.
 */
function contentNames(keys: readonly string[]): string[] {
  const taken = new Set<string>();
  return keys.map((key) => {
    const base = fnv1a(key).toString(36);
    let name = base;
    for (let suffix = 1; taken.has(name); suffix += 1) name = `${base}-${suffix}`;
    taken.add(name);
    return name;
  });
}

function termPartitions(
  index: SearchIndexFile,
  target: number,
): { files: IndexFile[]; firsts: string[]; names: string[] } {
  const postings = base64ToBytes(index.postings);
  const impacts = base64ToBytes(index.impacts);
  const byteStarts = [0];
  const impactStarts = [0];
  index.terms.forEach((_, term) => {
    byteStarts.push((byteStarts[term] as number) + (index.lengths[term] ?? 0));
    impactStarts.push((impactStarts[term] as number) + (index.counts[term] ?? 0));
  });
  const starts = contentCuts(
    index.terms.length,
    (term) => fnv1a(index.terms[term] as string),
    // Its bytes: postings and impacts, the term and its three numbers.
    (term) => (index.lengths[term] ?? 0) + (index.counts[term] ?? 0) + (index.terms[term]?.length ?? 0) + 12,
    target,
  );
  const firsts = starts.map((start) => index.terms[start] as string);
  const names = contentNames(firsts);
  const files = starts.map((start, partition): IndexFile => {
    const end = starts[partition + 1] ?? index.terms.length;
    const body = termPartitionBytes({
      terms: index.terms.slice(start, end),
      counts: index.counts.slice(start, end),
      lengths: index.lengths.slice(start, end),
      postings: postings.subarray(byteStarts[start], byteStarts[end]),
      impacts: impacts.subarray(impactStarts[start], impactStarts[end]),
    });
    return { name: termFile(names[partition] as string), body };
  });
  return { files, firsts, names };
}

/** A sorted list of terms cut by content into files of about `target` terms. */
function vocabFiles(
  list: readonly string[],
  target: number,
  fileOf: (name: string) => string,
): { files: IndexFile[]; firsts: string[]; names: string[] } {
  const starts = contentCuts(
    list.length,
    (at) => fnv1a(list[at] as string),
    () => 1,
    target,
  );
  const firsts = starts.map((start) => list[start] as string);
  const names = contentNames(firsts);
  const files = starts.map((start, partition) => ({
    name: fileOf(names[partition] as string),
    body: JSON.stringify(packStrings(list.slice(start, starts[partition + 1] ?? list.length))),
  }));
  return { files, firsts, names };
}

function pricePartitions(
  index: SearchIndexFile,
  target: number,
): { files: IndexFile[]; firsts: number[]; names: string[]; span: [number, number] | null } {
  const { prices } = index;
  const order = readUint32LittleEndian(base64ToBytes(index.price_order));
  const productOf = new Uint32Array(prices.length);
  const firstVariant = new Uint32Array(index.ids.length + 1);
  index.ids.forEach((_, product) => {
    firstVariant[product + 1] = (firstVariant[product] as number) + (index.variants[product] ?? 0);
    productOf.fill(product, firstVariant[product], firstVariant[product + 1]);
  });
  if (order.length !== prices.length || index.ids.length >= 2 ** 31) {
    throw new TypeError(`search index: ${order.length} variants in price order for ${prices.length} prices`);
  }
  for (const price of prices) {
    if (!Number.isSafeInteger(price))
      throw new TypeError(`search index: price ${price} is not an integer of minor units`);
  }
  const priceAt = (at: number): number => prices[order[at] as number] as number;
  /** An entry's key: its price, its product's id and its place among the product's variants. */
  const keyAt = (at: number): string => {
    const variant = order[at] as number;
    const product = productOf[variant] as number;
    return `${priceAt(at)} ${index.ids[product]} ${variant - (firstVariant[product] as number)}`;
  };
  const starts = contentCuts(
    order.length,
    (at) => fnv1a(keyAt(at)),
    () => 1,
    target,
  );
  const names = contentNames(starts.map(keyAt));
  const files = starts.map((start, partition): IndexFile => {
    const end = starts[partition + 1] ?? order.length;
    const steps = new ByteWriter();
    const entries = new Uint32Array(end - start);
    for (let at = start; at < end; at += 1) {
      steps.varint(at === start ? 0 : priceAt(at) - priceAt(at - 1));
      const variant = order[at] as number;
      entries[at - start] = (productOf[variant] as number) * 2 + (index.available[variant] === '1' ? 1 : 0);
    }
    const body = pricePartitionBytes({ first: priceAt(start), entries, steps: steps.written() });
    return { name: priceFile(names[partition] as string), body };
  });
  const span: [number, number] | null = order.length > 0 ? [priceAt(0), priceAt(order.length - 1)] : null;
  return { files, firsts: starts.map(priceAt), names, span };
}

function facetFiles(index: SearchIndexFile, block: number): IndexFile[] {
  const files: IndexFile[] = [];
  let variant = 0;
  for (let start = 0; start < index.ids.length; start += block) {
    const end = Math.min(index.ids.length, start + block);
    const facets = new Uint32Array(end - start);
    for (let product = start; product < end; product += 1) {
      const variants = index.variants[product] ?? 0;
      let available = 0;
      for (let at = variant; at < variant + variants; at += 1)
        if (index.available[at] === '1') available = HAS_AVAILABLE;
      variant += variants;
      facets[product - start] =
        (index.category[product] ?? 0) * 4 + (variants > 0 ? HAS_VARIANT : 0) + available;
    }
    files.push({ name: facetsFile(start / block), body: new SectionWriter().uint32s(facets).finish() });
  }
  return files;
}

/** Per product and column, its highest or lowest price (of all its variants, or those bought now). */
function spanFiles(index: SearchIndexFile, block: number): IndexFile[] {
  const count = index.ids.length;
  const columns = new Map<SpanColumn, Float64Array>(
    SPAN_COLUMNS.map((column) => [column, new Float64Array(count)]),
  );
  let variant = 0;
  for (let product = 0; product < count; product += 1) {
    const spans = { max: -Infinity, 'max-available': -Infinity, min: Infinity, 'min-available': Infinity };
    const end = variant + (index.variants[product] ?? 0);
    for (; variant < end; variant += 1) {
      const price = index.prices[variant] as number;
      spans.max = Math.max(spans.max, price);
      spans.min = Math.min(spans.min, price);
      if (index.available[variant] === '1') {
        spans['max-available'] = Math.max(spans['max-available'], price);
        spans['min-available'] = Math.min(spans['min-available'], price);
      }
    }
    for (const column of SPAN_COLUMNS) (columns.get(column) as Float64Array)[product] = spans[column];
  }
  const files: IndexFile[] = [];
  for (const column of SPAN_COLUMNS) {
    const values = columns.get(column) as Float64Array;
    for (let start = 0; start < count; start += block) {
      const slice = values.subarray(start, Math.min(count, start + block));
      files.push({
        name: spanFile(column, start / block),
        body: new SectionWriter().float64s(slice).finish(),
      });
    }
  }
  return files;
}
