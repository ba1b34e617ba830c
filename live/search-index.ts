/**
 * The catalog's search index: built by the generator with the bundle, loaded by the live
 * handler. Full text (MiniSearch; chosen over Orama for a 5× smaller serialised index and
 * faster loads and queries, docs/live.md has the figures) runs over name, brand, category,
 * description, options and tags; the filters (price in minor units, availability,
 * category) run over a compact row per product kept beside the text index. Results come
 * in one deterministic order (score, then catalog order), so an offset is a stable page
 * boundary for the life of a bundle.
 */
import MiniSearch, { type AsPlainObject, type Options, type SearchOptions } from 'minisearch';
import type { ProductRecord } from '../record/product-record.js';
import { toUcpProduct } from './ucp-product.js';

/**
 * A product's filter row: [product id, shard, category lower-cased, ...variants], each
 * variant as its price in minor units when it can be bought now, or as -(price + 1) when
 * not, so "available under $4" asks one variant both questions.
 */
export type IndexRow = [string, number, string, ...number[]];

const FIRST_VARIANT = 3;

export interface SearchIndexFile {
  format: 1;
  rows: IndexRow[];
  text: AsPlainObject;
}

interface TextDocument {
  id: number;
  name: string;
  brand: string;
  category: string;
  description: string;
  options: string;
  tags: string;
}

const TEXT_OPTIONS: Options<TextDocument> = {
  fields: ['name', 'brand', 'category', 'description', 'options', 'tags'],
  idField: 'id',
  searchOptions: { boost: { name: 4, brand: 2, category: 2, tags: 1.5 } },
};

/** Index rows and text for the records in catalog order; `shardOf` places each product's data. */
export function buildSearchIndex(
  records: readonly ProductRecord[],
  shardOf: (productId: string) => number,
): SearchIndexFile {
  const text = new MiniSearch<TextDocument>(TEXT_OPTIONS);
  const rows: IndexRow[] = [];
  records.forEach((record, position) => {
    text.add(textDocument(record, position));
    const variants = toUcpProduct(record).variants.map((variant) =>
      variant.availability.available ? variant.price.amount : -(variant.price.amount + 1),
    );
    rows.push([record.id, shardOf(record.id), lower(record.category), ...variants]);
  });
  return { format: 1, rows, text: text.toJSON() };
}

function textDocument(record: ProductRecord, position: number): TextDocument {
  const options = [
    ...record.options.flatMap((option) => [option.name, ...option.values]),
    ...record.variants.map((variant) => variant.title),
  ];
  return {
    id: position,
    name: record.name,
    brand: record.brand ?? '',
    category: record.category ?? '',
    description: record.description ?? '',
    options: options.join(' '),
    tags: record.tags.join(' '),
  };
}

function lower(text: string | undefined): string {
  return (text ?? '').trim().toLowerCase();
}

export interface SearchQuery {
  text?: string;
  /** Any of these categories (case-insensitive). */
  categories?: readonly string[];
  /** Minor units; a product matches when one of its variants is within. */
  price?: { min?: number; max?: number };
  /** true: only products with a variant that can be bought now (and, with `price`, is within it). */
  available?: boolean;
}

export interface LoadedSearchIndex {
  rows: readonly IndexRow[];
  /** Row numbers of the matches, best first, in a stable order. */
  search(query: SearchQuery): Uint32Array;
}

export function loadSearchIndex(file: SearchIndexFile): LoadedSearchIndex {
  const text = MiniSearch.loadJS<TextDocument>(file.text, TEXT_OPTIONS);
  const rows = file.rows;
  // An agent paging through one query asks it again per page: the matches are kept, so
  // page n costs a slice rather than a search over the whole catalog.
  const recent = new Map<string, Uint32Array>();
  const search = (query: SearchQuery): Uint32Array => {
    const key = JSON.stringify([
      query.text?.trim() ?? '',
      query.categories ?? [],
      query.price ?? {},
      query.available,
    ]);
    const kept = recent.get(key);
    if (kept) return kept;
    const found = Uint32Array.from(runSearch(text, rows, query));
    if (recent.size >= RECENT_QUERIES) recent.delete(recent.keys().next().value ?? '');
    recent.set(key, found);
    return found;
  };
  return { rows, search };
}

/** At 100,000 products a kept answer is at most 400 KB; 16 of them stay well inside a Worker's memory. */
const RECENT_QUERIES = 16;

function runSearch(text: MiniSearch<TextDocument>, rows: readonly IndexRow[], query: SearchQuery): number[] {
  const keep = rowFilter(query);
  const words = query.text?.trim() ?? '';
  if (words === '') return rows.flatMap((row, position) => (keep(row) ? [position] : []));
  const exact: SearchOptions = {
    prefix: (term) => term.length >= 3,
    filter: (result) => {
      const row = rows[result.id as number];
      return row !== undefined && keep(row);
    },
  };
  const fuzzy: SearchOptions = { ...exact, fuzzy: (term) => (term.length >= 5 ? 0.2 : false) };
  // Every word must match, spelled as given; then allowing typos (costly over a large
  // index, so only when needed); then the best partial matches, which are still worth an
  // answer ("ginger shot under 5 dollars" has words no product carries).
  let results = text.search(words, { ...exact, combineWith: 'AND' });
  if (results.length === 0) results = text.search(words, { ...fuzzy, combineWith: 'AND' });
  if (results.length === 0) results = text.search(words, { ...fuzzy, combineWith: 'OR' });
  return results
    .map((result) => ({ position: result.id as number, score: result.score }))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .map((result) => result.position);
}

function rowFilter(query: SearchQuery): (row: IndexRow) => boolean {
  const categories = query.categories?.map((category) => category.trim().toLowerCase());
  const min = query.price?.min ?? 0;
  const max = query.price?.max ?? Number.POSITIVE_INFINITY;
  const onlyAvailable = query.available === true;
  return (row) => {
    if (categories && categories.length > 0 && !categories.includes(row[2])) return false;
    if (query.price === undefined && !onlyAvailable) return true;
    for (let index = FIRST_VARIANT; index < row.length; index += 1) {
      const entry = row[index] as number;
      if (onlyAvailable && entry < 0) continue;
      const price = entry < 0 ? -entry - 1 : entry;
      if (price >= min && price <= max) return true;
    }
    return false;
  };
}
