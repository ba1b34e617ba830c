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

/** A product's filter row: [product id, shard, available 1|0, category lower-cased, ...variant prices]. */
export type IndexRow = [string, number, 0 | 1, string, ...number[]];

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
    const product = toUcpProduct(record);
    const prices = product.variants.map((variant) => variant.price.amount);
    rows.push([
      record.id,
      shardOf(record.id),
      record.availability === 'in_stock' ? 1 : 0,
      lower(record.category),
      ...prices,
    ]);
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
  /** true: only products with an available variant. */
  available?: boolean;
}

export interface LoadedSearchIndex {
  rows: readonly IndexRow[];
  /** Row numbers of the matches, best first, in a stable order. */
  search(query: SearchQuery): number[];
}

export function loadSearchIndex(file: SearchIndexFile): LoadedSearchIndex {
  const text = MiniSearch.loadJS<TextDocument>(file.text, TEXT_OPTIONS);
  const rows = file.rows;
  return {
    rows,
    search(query) {
      const keep = rowFilter(query);
      const words = query.text?.trim() ?? '';
      if (words === '') return rows.flatMap((row, position) => (keep(row) ? [position] : []));
      const options: SearchOptions = {
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        filter: (result) => {
          const row = rows[result.id as number];
          return row !== undefined && keep(row);
        },
      };
      // Every word must match; when none matches all, the best partial matches are still
      // worth an answer ("ginger shot under 5 dollars" has words no product carries).
      let results = text.search(words, { ...options, combineWith: 'AND' });
      if (results.length === 0) results = text.search(words, { ...options, combineWith: 'OR' });
      return results
        .map((result) => ({ position: result.id as number, score: result.score }))
        .sort((a, b) => b.score - a.score || a.position - b.position)
        .map((result) => result.position);
    },
  };
}

function rowFilter(query: SearchQuery): (row: IndexRow) => boolean {
  const categories = query.categories?.map((category) => category.trim().toLowerCase());
  const min = query.price?.min ?? 0;
  const max = query.price?.max ?? Number.POSITIVE_INFINITY;
  return (row) => {
    if (query.available === true && row[2] !== 1) return false;
    if (categories && categories.length > 0 && !categories.includes(row[3])) return false;
    if (query.price === undefined) return true;
    for (let index = 4; index < row.length; index += 1) {
      const price = row[index] as number;
      if (price >= min && price <= max) return true;
    }
    return false;
  };
}
